<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>CommandLine</name>
    <message>
        <source>Serve HTTP only, without the admin window.</source>
        <translation>Nur HTTP bereitstellen, ohne Verwaltungsfenster.</translation>
    </message>
    <message>
        <source>Address to listen on (default 127.0.0.1). A non-loopback address needs MEMORY_AUTH_MODE other than off.</source>
        <translation>Adresse, auf der gelauscht wird (Standard 127.0.0.1). Eine Adresse außerhalb von Loopback erfordert MEMORY_AUTH_MODE ungleich off.</translation>
    </message>
    <message>
        <source>TCP port to listen on (default 8787, 0 = any free port).</source>
        <translation>TCP-Port, auf dem gelauscht wird (Standard 8787, 0 = beliebiger freier Port).</translation>
    </message>
    <message>
        <source>Folder for the database and indexes (created if missing; default: the user&apos;s application data folder).</source>
        <translation>Ordner für Datenbank und Indizes (wird bei Bedarf angelegt; Standard: der Anwendungsdatenordner des Benutzers).</translation>
    </message>
    <message>
        <source>Use the dark colour theme in the admin window.</source>
        <translation>Dunkles Farbschema im Verwaltungsfenster verwenden.</translation>
    </message>
    <message>
        <source>Memory Graph: an agent-memory graph service with a desktop admin console.
With a display it opens the admin window and serves the HTTP /v1 API; with --headless, or when no display is available, it only serves HTTP.</source>
        <translation>Memory Graph: ein Gedächtnisgraph-Dienst für Agenten mit Desktop-Verwaltungskonsole.
Mit Bildschirm öffnet es das Verwaltungsfenster und stellt die HTTP-/v1-API bereit; mit --headless oder ohne verfügbaren Bildschirm stellt es nur HTTP bereit.</translation>
    </message>
    <message>
        <source>Speak the Model Context Protocol on stdin/stdout (same as the `mcp` command): forward to the instance serving the data folder, or serve it headless.</source>
        <translation>Model Context Protocol über stdin/stdout sprechen (wie der Befehl `mcp`): an die Instanz weiterleiten, die den Datenordner bedient, oder ihn ohne Fenster selbst bedienen.</translation>
    </message>
    <message>
        <source>Start with the window hidden in the system tray, serving (minimised when the desktop has no tray). Used by start at login; no effect with --headless.</source>
        <translation>Mit verborgenem Fenster im Infobereich starten und Anfragen bedienen (minimiert, wenn der Desktop keinen Infobereich hat). Wird beim Start bei der Anmeldung verwendet; ohne Wirkung mit --headless.</translation>
    </message>
    <message>
        <source>export/import: the tenant (default: the configured one for export, the file&apos;s for import).</source>
        <translation>export/import: der Mandant (Standard: der konfigurierte beim Export, der der Datei beim Import).</translation>
    </message>
    <message>
        <source>export/import: the scope (default: the configured one for export, the file&apos;s for import).</source>
        <translation>export/import: der Bereich (Standard: der konfigurierte beim Export, der der Datei beim Import).</translation>
    </message>
    <message>
        <source>import: report what would be added and what conflicts; write nothing.</source>
        <translation>import: melden, was hinzukäme und was kollidiert; nichts schreiben.</translation>
    </message>
    <message>
        <source>import: give every record a new id and rename client ids the target scope already uses.</source>
        <translation>import: jedem Datensatz eine neue ID geben und Client-IDs umbenennen, die der Zielbereich schon verwendet.</translation>
    </message>
    <message>
        <source>import: keep the ids, rename only client ids the target scope already uses.</source>
        <translation>import: die IDs behalten, nur Client-IDs umbenennen, die der Zielbereich schon verwendet.</translation>
    </message>
    <message>
        <source>export: leave the vectors out (the importing store embeds again).</source>
        <translation>export: die Vektoren weglassen (der importierende Speicher erzeugt die Embeddings neu).</translation>
    </message>
    <message>
        <source>Command: run the MCP stdio server (same as --mcp-stdio).</source>
        <translation>Befehl: den MCP-stdio-Server ausführen (wie --mcp-stdio).</translation>
    </message>
    <message>
        <source>Command: copy the store of the data folder to FILE (one SQLite file), also while another memorygraph serves it; progress on stderr.</source>
        <translation>Befehl: den Speicher des Datenordners nach DATEI kopieren (eine SQLite-Datei), auch während ein anderes memorygraph ihn bedient; Fortschritt auf stderr.</translation>
    </message>
    <message>
        <source>Command: replace the store of the data folder with the backup FILE; refused while another memorygraph has the folder open. The previous store is kept beside it.</source>
        <translation>Befehl: den Speicher des Datenordners durch die Sicherung DATEI ersetzen; verweigert, solange ein anderes memorygraph den Ordner geöffnet hat. Der bisherige Speicher bleibt daneben erhalten.</translation>
    </message>
    <message>
        <source>Command: write a tenant/scope (--tenant, --scope) to an export file; --no-embeddings leaves the vectors out.</source>
        <translation>Befehl: einen Mandanten/Bereich (--tenant, --scope) in eine Exportdatei schreiben; --no-embeddings lässt die Vektoren weg.</translation>
    </message>
    <message>
        <source>Command: read an export file into this store (--tenant, --scope, --dry-run, --remap-ids, --remap-client-ids).</source>
        <translation>Befehl: eine Exportdatei in diesen Speicher einlesen (--tenant, --scope, --dry-run, --remap-ids, --remap-client-ids).</translation>
    </message>
</context>
<context>
    <name>EmbeddingState</name>
    <message>
        <source>Model: %1</source>
        <translation>Modell: %1</translation>
    </message>
    <message>
        <source>Waiting for the embedding worker.</source>
        <translation>Wartet auf den Embedding-Worker.</translation>
    </message>
    <message>
        <source>not requested</source>
        <translation>nicht angefordert</translation>
    </message>
    <message>
        <source>Not embedded: written with auto_embed off (as replay records are) or with no embedding provider configured. Recall finds it through the graph, not by similarity.</source>
        <translation>Kein Embedding: mit auto_embed aus geschrieben (wie Replay-Einträge) oder ohne konfigurierten Embedding-Anbieter. Der Abruf findet den Knoten über den Graphen, nicht über Ähnlichkeit.</translation>
    </message>
    <message>
        <source>no reason recorded</source>
        <translation>kein Grund erfasst</translation>
    </message>
    <message>
        <source>Error: %1</source>
        <translation>Fehler: %1</translation>
    </message>
</context>
<context>
    <name>ImportDialog</name>
    <message>
        <source>Nodes</source>
        <translation>Knoten</translation>
    </message>
    <message>
        <source>Edges</source>
        <translation>Kanten</translation>
    </message>
    <message>
        <source>Rule states</source>
        <translation>Regelzustände</translation>
    </message>
    <message>
        <source>Decisions</source>
        <translation>Entscheidungen</translation>
    </message>
    <message>
        <source>Rule feedback</source>
        <translation>Regel-Feedback</translation>
    </message>
    <message>
        <source>Commits (history)</source>
        <translation>Commits (Verlauf)</translation>
    </message>
</context>
<context>
    <name>MemoryGraph::AppController</name>
    <message>
        <source>Restore</source>
        <translation>Wiederherstellen</translation>
    </message>
</context>
<context>
    <name>MemoryGraph::Ui::ActivateDialog</name>
    <message>
        <source>Record activation</source>
        <translation>Aktivierung erfassen</translation>
    </message>
    <message>
        <source>Record a use of %1. The outcome feeds the node&apos;s feedback counters and quality, which steer adaptive decay.</source>
        <translation>Eine Verwendung von %1 erfassen. Das Ergebnis fließt in die Feedback-Zähler und die Qualität des Knotens ein, die den adaptiven Verfall steuern.</translation>
    </message>
    <message>
        <source>Neutral</source>
        <translation>Neutral</translation>
    </message>
    <message>
        <source>Positive</source>
        <translation>Positiv</translation>
    </message>
    <message>
        <source>Negative</source>
        <translation>Negativ</translation>
    </message>
    <message>
        <source>Count as a use (updates last activated)</source>
        <translation>Als Verwendung zählen (aktualisiert „zuletzt aktiviert“)</translation>
    </message>
    <message>
        <source>Optional</source>
        <translation>Optional</translation>
    </message>
    <message>
        <source>&amp;Outcome:</source>
        <translation>&amp;Ergebnis:</translation>
    </message>
    <message>
        <source>&amp;Reason:</source>
        <translation>&amp;Grund:</translation>
    </message>
    <message>
        <source>Record</source>
        <translation>Erfassen</translation>
    </message>
</context>
<context>
    <name>MemoryGraph::Ui::AuditPage</name>
    <message>
        <source>Reload scopes and commits (%1)</source>
        <translation>Bereiche und Commits neu laden (%1)</translation>
    </message>
    <message>
        <source>&amp;Verify chain</source>
        <translation>Kette &amp;prüfen</translation>
    </message>
    <message>
        <source>Recompute every commit hash of this scope and report the first break (%1)</source>
        <translation>Jeden Commit-Hash dieses Bereichs neu berechnen und den ersten Bruch melden (%1)</translation>
    </message>
    <message>
        <source>Run &amp;decay now</source>
        <translation>&amp;Verfall jetzt ausführen</translation>
    </message>
    <message>
        <source>Decay salience and demote inactive nodes of this scope now (one commit)</source>
        <translation>Salienz jetzt verfallen lassen und inaktive Knoten dieses Bereichs herabstufen (ein Commit)</translation>
    </message>
    <message>
        <source>&amp;Consolidate…</source>
        <translation>&amp;Konsolidieren…</translation>
    </message>
    <message>
        <source>Preview duplicate nodes of this scope, then mark them</source>
        <translation>Doppelte Knoten dieses Bereichs als Vorschau anzeigen und dann markieren</translation>
    </message>
    <message>
        <source>Commits (newest first)</source>
        <translation>Commits (neueste zuerst)</translation>
    </message>
    <message>
        <source>Back to &amp;newest</source>
        <translation>Zurück zu den &amp;neuesten</translation>
    </message>
    <message>
        <source>The table shows an older part of the chain; return to the newest commits</source>
        <translation>Die Tabelle zeigt einen älteren Teil der Kette; zurück zu den neuesten Commits</translation>
    </message>
    <message>
        <source>Diff</source>
        <translation>Diff</translation>
    </message>
    <message>
        <source>Select a commit to see what it changed.</source>
        <translation>Wählen Sie einen Commit aus, um zu sehen, was er geändert hat.</translation>
    </message>
    <message>
        <source>Loading commits failed: %1</source>
        <translation>Laden der Commits fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Commit %1 is no longer in this scope.</source>
        <translation>Commit %1 ist nicht mehr in diesem Bereich.</translation>
    </message>
    <message>
        <source>Commit #%1 · %2 · %3 · %4</source>
        <translation>Commit #%1 · %2 · %3 · %4</translation>
    </message>
    <message>
        <source>id %1
hash %2
parent %3
input sha256 %4
diff sha256 %5</source>
        <translation>ID %1
Hash %2
Vorgänger %3
Eingabe-sha256 %4
Diff-sha256 %5</translation>
    </message>
    <message>
        <source>Verifying the commit chain…</source>
        <translation>Commit-Kette wird geprüft…</translation>
    </message>
    <message>
        <source>Verification failed: %1</source>
        <translation>Prüfung fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>✔ Chain intact: 1 commit verified.</source>
        <translation>✔ Kette intakt: 1 Commit geprüft.</translation>
    </message>
    <message>
        <source>✔ Chain intact: %1 commits verified.</source>
        <translation>✔ Kette intakt: %1 Commits geprüft.</translation>
    </message>
    <message>
        <source>✖ Chain broken at commit #%1 (%2): expected %3, found %4. &lt;a href=&quot;%5&quot;&gt;Show&lt;/a&gt;</source>
        <translation>✖ Kette bei Commit #%1 (%2) unterbrochen: erwartet %3, gefunden %4. &lt;a href=&quot;%5&quot;&gt;Anzeigen&lt;/a&gt;</translation>
    </message>
    <message numerus="yes">
        <source>Commit %1
expected: %2
found: %3
%n commit(s) checked</source>
        <translation>
            <numerusform>Commit %1
erwartet: %2
gefunden: %3
%n Commit geprüft</numerusform>
            <numerusform>Commit %1
erwartet: %2
gefunden: %3
%n Commits geprüft</numerusform>
        </translation>
    </message>
    <message>
        <source>Running adaptive decay…</source>
        <translation>Adaptiver Verfall läuft…</translation>
    </message>
    <message>
        <source>Decay failed: %1</source>
        <translation>Verfall fehlgeschlagen: %1</translation>
    </message>
    <message numerus="yes">
        <source>Decay: nothing to change (%n protected node(s) skipped).</source>
        <translation>
            <numerusform>Verfall: nichts zu ändern (%n geschützter Knoten übersprungen).</numerusform>
            <numerusform>Verfall: nichts zu ändern (%n geschützte Knoten übersprungen).</numerusform>
        </translation>
    </message>
    <message>
        <source>Decay: salience lowered on %1 node(s), %2 tier move(s) (%3 deferred by the daily budget), commit %4.</source>
        <translation>Verfall: Salienz bei %1 Knoten gesenkt, %2 Stufenwechsel (%3 durch das Tagesbudget zurückgestellt), Commit %4.</translation>
    </message>
    <message>
        <source>Consolidation: nothing left to merge.</source>
        <translation>Konsolidierung: nichts mehr zusammenzuführen.</translation>
    </message>
    <message>
        <source>Consolidation applied in commit %1.</source>
        <translation>Konsolidierung in Commit %1 angewendet.</translation>
    </message>
    <message>
        <source>Verify chain</source>
        <translation>Kette prüfen</translation>
    </message>
    <message>
        <source>Verifying the commit chain of %1 / %2</source>
        <translation>Die Commit-Kette von %1 / %2 wird geprüft</translation>
    </message>
    <message>
        <source>Verification cancelled after %1 of %2 commits; the chain was not fully checked.</source>
        <translation>Prüfung nach %1 von %2 Commits abgebrochen; die Kette wurde nicht vollständig geprüft.</translation>
    </message>
</context>
<context>
    <name>MemoryGraph::Ui::AutomationGraphView</name>
    <message>
        <source>No graph</source>
        <translation>Kein Graph</translation>
    </message>
    <message>
        <source>graph: %1</source>
        <translation>Graph: %1</translation>
    </message>
</context>
<context>
    <name>MemoryGraph::Ui::AutomationTelemetryChart</name>
    <message>
        <source>Success rate</source>
        <translation>Erfolgsquote</translation>
    </message>
    <message>
        <source>SLO %1%</source>
        <translation>SLO %1 %</translation>
    </message>
    <message>
        <source>Pause rate</source>
        <translation>Pausenquote</translation>
    </message>
    <message>
        <source>p95 duration (s)</source>
        <translation>p95-Dauer (s)</translation>
    </message>
    <message>
        <source>window p95 %1 s</source>
        <translation>Zeitraum p95 %1 s</translation>
    </message>
</context>
<context>
    <name>MemoryGraph::Ui::AutomationsPage</name>
    <message>
        <source>Reload scopes and automations (%1)</source>
        <translation>Bereiche und Automatisierungen neu laden (%1)</translation>
    </message>
    <message>
        <source>Definitions</source>
        <translation>Definitionen</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>Läufe</translation>
    </message>
    <message>
        <source>Telemetry</source>
        <translation>Telemetrie</translation>
    </message>
    <message>
        <source>Automation</source>
        <translation>Automatisierung</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Version</source>
        <translation>Version</translation>
    </message>
    <message>
        <source>Updated</source>
        <translation>Geändert</translation>
    </message>
    <message>
        <source>&amp;New</source>
        <translation>&amp;Neu</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>&amp;Ausführen</translation>
    </message>
    <message>
        <source>Run the latest version now (execution mode default)</source>
        <translation>Die neueste Version jetzt ausführen (Ausführungsmodus default)</translation>
    </message>
    <message>
        <source>&amp;Shadow run</source>
        <translation>&amp;Shadow-Lauf</translation>
    </message>
    <message>
        <source>Validate the latest shadow version with a shadow run (approvals pass, playbooks simulate)</source>
        <translation>Die neueste Shadow-Version mit einem Shadow-Lauf prüfen (Freigaben werden durchgelassen, Playbooks simuliert)</translation>
    </message>
    <message>
        <source>Shadow review</source>
        <translation>Shadow-Prüfung</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Erstellt</translation>
    </message>
    <message>
        <source>By</source>
        <translation>Von</translation>
    </message>
    <message>
        <source>&amp;Promote</source>
        <translation>&amp;Hochstufen</translation>
    </message>
    <message>
        <source>Re&amp;view shadow</source>
        <translation>Shadow &amp;prüfen</translation>
    </message>
    <message>
        <source>Promote to:</source>
        <translation>Hochstufen zu:</translation>
    </message>
    <message>
        <source>Versions</source>
        <translation>Versionen</translation>
    </message>
    <message>
        <source>Sa&amp;ve as new version</source>
        <translation>Als neue Version &amp;speichern</translation>
    </message>
    <message>
        <source>Definition (JSON)</source>
        <translation>Definition (JSON)</translation>
    </message>
    <message>
        <source>Graph</source>
        <translation>Graph</translation>
    </message>
    <message>
        <source>any state</source>
        <translation>jeder Zustand</translation>
    </message>
    <message>
        <source>any automation</source>
        <translation>jede Automatisierung</translation>
    </message>
    <message>
        <source>any reviewer</source>
        <translation>jeder Prüfer</translation>
    </message>
    <message>
        <source>Needs &amp;action (inbox)</source>
        <translation>&amp;Handlungsbedarf (Eingang)</translation>
    </message>
    <message>
        <source>Only runs waiting for an operator, the most urgent first: repairs, approvals, other pauses, compensation follow-ups</source>
        <translation>Nur Läufe, die auf einen Operator warten, die dringendsten zuerst: Reparaturen, Freigaben, andere Pausen, Nacharbeiten von Kompensationen</translation>
    </message>
    <message>
        <source>State:</source>
        <translation>Zustand:</translation>
    </message>
    <message>
        <source>Automation:</source>
        <translation>Automatisierung:</translation>
    </message>
    <message>
        <source>Reviewer:</source>
        <translation>Prüfer:</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Lauf</translation>
    </message>
    <message>
        <source>v</source>
        <translation>v</translation>
    </message>
    <message>
        <source>Mode</source>
        <translation>Modus</translation>
    </message>
    <message>
        <source>Next action</source>
        <translation>Nächster Schritt</translation>
    </message>
    <message>
        <source>Reviewer</source>
        <translation>Prüfer</translation>
    </message>
    <message>
        <source>Select a run.</source>
        <translation>Wählen Sie einen Lauf aus.</translation>
    </message>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>Knoten</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Art</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>Ergebnis</translation>
    </message>
    <message>
        <source>Attempt</source>
        <translation>Versuch</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>Gestartet</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>Dauer</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>Fehler</translation>
    </message>
    <message>
        <source>Resume / approve</source>
        <translation>Fortsetzen / freigeben</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Approve repair</source>
        <translation>Reparatur freigeben</translation>
    </message>
    <message>
        <source>Reject repair</source>
        <translation>Reparatur ablehnen</translation>
    </message>
    <message>
        <source>Assign</source>
        <translation>Zuweisen</translation>
    </message>
    <message>
        <source>Record</source>
        <translation>Erfassen</translation>
    </message>
    <message>
        <source>reviewer</source>
        <translation>Prüfer</translation>
    </message>
    <message>
        <source>Compensation:</source>
        <translation>Kompensation:</translation>
    </message>
    <message>
        <source>Last 24 hours</source>
        <translation>Letzte 24 Stunden</translation>
    </message>
    <message>
        <source>Last 7 days</source>
        <translation>Letzte 7 Tage</translation>
    </message>
    <message>
        <source>Last 30 days</source>
        <translation>Letzte 30 Tage</translation>
    </message>
    <message>
        <source>Window:</source>
        <translation>Zeitraum:</translation>
    </message>
    <message>
        <source>%1…</source>
        <translation>%1…</translation>
    </message>
    <message>
        <source>%1 done</source>
        <translation>%1 erledigt</translation>
    </message>
    <message>
        <source>JSON: %1 at offset %2</source>
        <translation>JSON: %1 an Position %2</translation>
    </message>
    <message>
        <source>JSON: the definition must be an object</source>
        <translation>JSON: die Definition muss ein Objekt sein</translation>
    </message>
    <message>
        <source>Valid. Runs in order: %1</source>
        <translation>Gültig. Reihenfolge der Ausführung: %1</translation>
    </message>
    <message numerus="yes">
        <source>%n issue(s):
</source>
        <translation>
            <numerusform>%n Problem:
</numerusform>
            <numerusform>%n Probleme:
</numerusform>
        </translation>
    </message>
    <message>
        <source>Loading automations failed: %1</source>
        <translation>Laden der Automatisierungen fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Loading the automation failed: %1</source>
        <translation>Laden der Automatisierung fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>v%1 is active.</source>
        <translation>v%1 ist aktiv.</translation>
    </message>
    <message>
        <source>Review gate open: v%1 (shadow) has an approved shadow review; it can be promoted to active.</source>
        <translation>Prüftor offen: v%1 (shadow) hat eine freigegebene Shadow-Prüfung; sie kann zu active hochgestuft werden.</translation>
    </message>
    <message>
        <source>Review gate closed: promoting v%1 to active needs an approved shadow review (latest verdict: %2). Shadow-run it, then review it.</source>
        <translation>Prüftor geschlossen: v%1 zu active hochzustufen erfordert eine freigegebene Shadow-Prüfung (letztes Urteil: %2). Erst einen Shadow-Lauf ausführen, dann prüfen.</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keines</translation>
    </message>
    <message>
        <source>v%1 is %2: promote it to shadow first; active needs a reviewed shadow version.</source>
        <translation>v%1 ist %2: zuerst zu shadow hochstufen; active erfordert eine geprüfte Shadow-Version.</translation>
    </message>
    <message>
        <source>Loading runs failed: %1</source>
        <translation>Laden der Läufe fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Loading the run failed: %1</source>
        <translation>Laden des Laufs fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; · %2 v%3 · %4 mode</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; · %2 v%3 · Modus %4</translation>
    </message>
    <message>
        <source>Run %1 · requested by %2 · started %3 · ended %4</source>
        <translation>Lauf %1 · angefordert von %2 · gestartet %3 · beendet %4</translation>
    </message>
    <message>
        <source>Root cause: %1 at %2 — %3</source>
        <translation>Ursache: %1 bei %2 — %3</translation>
    </message>
    <message>
        <source>Compensation: %1 · workflow %2 · reviewer %3</source>
        <translation>Kompensation: %1 · Workflow %2 · Prüfer %3</translation>
    </message>
    <message>
        <source>Loading telemetry failed: %1</source>
        <translation>Laden der Telemetrie fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>%1 runs (%2 ended, %3 succeeded, %4 paused now) · success %5 (SLO %6 %7) · pause rate %8 · p95 %9 · compensation failures %10 (budget %11)
Root causes: %12</source>
        <translation>%1 Läufe (%2 beendet, %3 erfolgreich, %4 derzeit pausiert) · Erfolg %5 (SLO %6 %7) · Pausenquote %8 · p95 %9 · fehlgeschlagene Kompensationen %10 (Budget %11)
Ursachen: %12</translation>
    </message>
    <message>
        <source>met</source>
        <translation>erfüllt</translation>
    </message>
    <message>
        <source>missed</source>
        <translation>verfehlt</translation>
    </message>
</context>
<context>
    <name>MemoryGraph::Ui::BackupActions</name>
    <message>
        <source>Memory Graph backups (*.sqlite *.db);;All files (*)</source>
        <translation>Memory-Graph-Sicherungen (*.sqlite *.db);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>&amp;Back up…</source>
        <translation>&amp;Sichern…</translation>
    </message>
    <message>
        <source>Copy the whole store to a file while the service keeps serving</source>
        <translation>Den ganzen Speicher in eine Datei kopieren, während der Dienst weiter Anfragen bedient</translation>
    </message>
    <message>
        <source>&amp;Restore…</source>
        <translation>&amp;Wiederherstellen…</translation>
    </message>
    <message>
        <source>Replace the whole store with a backup the next time Memory Graph starts</source>
        <translation>Den ganzen Speicher beim nächsten Start von Memory Graph durch eine Sicherung ersetzen</translation>
    </message>
    <message>
        <source>Back up the store</source>
        <translation>Den Speicher sichern</translation>
    </message>
    <message>
        <source>Back up</source>
        <translation>Sichern</translation>
    </message>
    <message>
        <source>Backing up the store to %1</source>
        <translation>Der Speicher wird nach %1 gesichert</translation>
    </message>
    <message>
        <source>Backup cancelled; nothing was written.</source>
        <translation>Sicherung abgebrochen; nichts wurde geschrieben.</translation>
    </message>
    <message>
        <source>The backup failed; nothing was written to %1.</source>
        <translation>Die Sicherung ist fehlgeschlagen; nach %1 wurde nichts geschrieben.</translation>
    </message>
    <message>
        <source>Backup failed: %1</source>
        <translation>Sicherung fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Backed up %1 nodes, %2 edges and %3 commits to %4 (%5).</source>
        <translation>%1 Knoten, %2 Kanten und %3 Commits nach %4 gesichert (%5).</translation>
    </message>
    <message>
        <source>The copy passed SQLite&apos;s integrity check. The vector indexes are not in it: they are rebuilt from the store after a restore.</source>
        <translation>Die Kopie hat die Integritätsprüfung von SQLite bestanden. Die Vektorindizes sind nicht enthalten: Sie werden nach einer Wiederherstellung aus dem Speicher neu aufgebaut.</translation>
    </message>
    <message>
        <source>Restore</source>
        <translation>Wiederherstellen</translation>
    </message>
    <message>
        <source>A restore from %1 (%2 nodes, prepared %3) waits for the next start.</source>
        <translation>Eine Wiederherstellung aus %1 (%2 Knoten, vorbereitet %3) wartet auf den nächsten Start.</translation>
    </message>
    <message>
        <source>Choose another file…</source>
        <translation>Andere Datei wählen…</translation>
    </message>
    <message>
        <source>Drop the pending restore</source>
        <translation>Die anstehende Wiederherstellung verwerfen</translation>
    </message>
    <message>
        <source>The pending restore was dropped.</source>
        <translation>Die anstehende Wiederherstellung wurde verworfen.</translation>
    </message>
    <message>
        <source>Replace the whole store, every tenant and scope, with %1?</source>
        <translation>Den ganzen Speicher, jeden Mandanten und Bereich, durch %1 ersetzen?</translation>
    </message>
    <message>
        <source>The store cannot be replaced while it is serving, so Memory Graph restores it the next time it starts: the file is checked and copied now, and swapped in at the start. Memories written until then are not in the backup; the store that is replaced is kept in the data folder as memorygraph.sqlite.before-restore-&lt;time&gt;. The vector indexes are rebuilt from the restored store.</source>
        <translation>Der Speicher kann nicht ersetzt werden, während er Anfragen bedient; deshalb stellt Memory Graph ihn beim nächsten Start wieder her: Die Datei wird jetzt geprüft und kopiert und beim Start eingesetzt. Bis dahin geschriebene Erinnerungen sind nicht in der Sicherung; der ersetzte Speicher bleibt im Datenordner als memorygraph.sqlite.before-restore-&lt;Zeit&gt; erhalten. Die Vektorindizes werden aus dem wiederhergestellten Speicher neu aufgebaut.</translation>
    </message>
    <message>
        <source>Restore on next start</source>
        <translation>Beim nächsten Start wiederherstellen</translation>
    </message>
    <message>
        <source>Restore from a backup</source>
        <translation>Aus einer Sicherung wiederherstellen</translation>
    </message>
    <message>
        <source>Checking and copying %1</source>
        <translation>%1 wird geprüft und kopiert</translation>
    </message>
    <message>
        <source>Restore cancelled; nothing was changed.</source>
        <translation>Wiederherstellung abgebrochen; nichts wurde geändert.</translation>
    </message>
    <message>
        <source>%1 cannot be restored; nothing was changed.</source>
        <translation>%1 kann nicht wiederhergestellt werden; nichts wurde geändert.</translation>
    </message>
    <message>
        <source>Restore refused: %1</source>
        <translation>Wiederherstellung verweigert: %1</translation>
    </message>
    <message>
        <source>The backup holds %1 nodes, %2 edges and %3 commits and passed SQLite&apos;s integrity check. It replaces the store the next time Memory Graph starts.</source>
        <translation>Die Sicherung enthält %1 Knoten, %2 Kanten und %3 Commits und hat die Integritätsprüfung von SQLite bestanden. Sie ersetzt den Speicher beim nächsten Start von Memory Graph.</translation>
    </message>
    <message>
        <source>Quit now and start Memory Graph again to restore.</source>
        <translation>Jetzt beenden und Memory Graph neu starten, um wiederherzustellen.</translation>
    </message>
    <message>
        <source>&amp;Quit now</source>
        <translation>Jetzt &amp;beenden</translation>
    </message>
</context>
<context>
    <name>MemoryGraph::Ui::CommitListModel</name>
    <message>
        <source>Seq</source>
        <translation>Nr.</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Art</translation>
    </message>
    <message>
        <source>Actor</source>
        <translation>Akteur</translation>
    </message>
    <message>
        <source>Hash</source>
        <translation>Hash</translation>
    </message>
    <message>
        <source>Commit id</source>
        <translation>Commit-ID</translation>
    </message>
</context>
<context>
    <name>MemoryGraph::Ui::ConsolidationDialog</name>
    <message>
        <source>Consolidate duplicates — %1 / %2</source>
        <translation>Duplikate konsolidieren — %1 / %2</translation>
    </message>
    <message>
        <source>Duplicates are nodes of the same type with the same title and summary, or embeddings with cosine similarity of at least %1. The oldest node stays canonical; duplicates are marked alias_of / superseded_by and nothing is deleted.</source>
        <translation>Duplikate sind Knoten desselben Typs mit gleichem Titel und gleicher Zusammenfassung oder mit Embeddings, deren Kosinus-Ähnlichkeit mindestens %1 beträgt. Der älteste Knoten bleibt kanonisch; Duplikate werden als alias_of / superseded_by markiert, gelöscht wird nichts.</translation>
    </message>
    <message>
        <source>Merges</source>
        <translation>Zusammenführungen</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Typ</translation>
    </message>
    <message>
        <source>Canonical</source>
        <translation>Kanonisch</translation>
    </message>
    <message>
        <source>Duplicate</source>
        <translation>Duplikat</translation>
    </message>
    <message>
        <source>Basis</source>
        <translation>Grundlage</translation>
    </message>
    <message>
        <source>Similarity</source>
        <translation>Ähnlichkeit</translation>
    </message>
    <message>
        <source>Skipped candidates</source>
        <translation>Übersprungene Kandidaten</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>Knoten</translation>
    </message>
    <message>
        <source>Similar to</source>
        <translation>Ähnlich zu</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Grund</translation>
    </message>
    <message>
        <source>&amp;Apply</source>
        <translation>&amp;Anwenden</translation>
    </message>
    <message>
        <source>Mark the duplicates listed above (one commit)</source>
        <translation>Die oben aufgeführten Duplikate markieren (ein Commit)</translation>
    </message>
    <message>
        <source>Looking for duplicates (dry run)…</source>
        <translation>Duplikate werden gesucht (Probelauf)…</translation>
    </message>
    <message>
        <source>Dry run failed: %1</source>
        <translation>Probelauf fehlgeschlagen: %1</translation>
    </message>
    <message numerus="yes">
        <source>No duplicates found among %n node(s).</source>
        <translation>
            <numerusform>Keine Duplikate unter %n Knoten gefunden.</numerusform>
            <numerusform>Keine Duplikate unter %n Knoten gefunden.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Dry run: nothing has been changed yet. Apply to mark %n duplicate(s).</source>
        <translation>
            <numerusform>Probelauf: Noch wurde nichts geändert. Anwenden markiert %n Duplikat.</numerusform>
            <numerusform>Probelauf: Noch wurde nichts geändert. Anwenden markiert %n Duplikate.</numerusform>
        </translation>
    </message>
    <message>
        <source>Applying…</source>
        <translation>Wird angewendet…</translation>
    </message>
    <message>
        <source>Apply failed: %1</source>
        <translation>Anwenden fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Nothing left to merge.</source>
        <translation>Nichts mehr zusammenzuführen.</translation>
    </message>
    <message numerus="yes">
        <source>Merged %n duplicate(s) in commit %1.</source>
        <translation>
            <numerusform>%n Duplikat in Commit %1 zusammengeführt.</numerusform>
            <numerusform>%n Duplikate in Commit %1 zusammengeführt.</numerusform>
        </translation>
    </message>
    <message>
        <source>same text</source>
        <translation>gleicher Text</translation>
    </message>
    <message>
        <source>embedding</source>
        <translation>Embedding</translation>
    </message>
    <message>
        <source>One of the two negates the other, or their polarity / stance differ</source>
        <translation>Einer der beiden verneint den anderen, oder Polarität / Haltung unterscheiden sich</translation>
    </message>
    <message>
        <source>Merges (%1)</source>
        <translation>Zusammenführungen (%1)</translation>
    </message>
    <message>
        <source>Skipped candidates (%1)</source>
        <translation>Übersprungene Kandidaten (%1)</translation>
    </message>
    <message>
        <source>Looking for duplicates (dry run)</source>
        <translation>Duplikate werden gesucht (Probelauf)</translation>
    </message>
    <message>
        <source>Dry run cancelled; nothing was changed.</source>
        <translation>Probelauf abgebrochen; nichts wurde geändert.</translation>
    </message>
    <message>
        <source>Marking the duplicates</source>
        <translation>Die Duplikate werden markiert</translation>
    </message>
    <message>
        <source>Apply cancelled; nothing was changed.</source>
        <translation>Anwenden abgebrochen; nichts wurde geändert.</translation>
    </message>
</context>
<context>
    <name>MemoryGraph::Ui::DecisionDetail</name>
    <message>
        <source>Select a decision to see how it was made.</source>
        <translation>Wählen Sie eine Entscheidung aus, um zu sehen, wie sie zustande kam.</translation>
    </message>
    <message>
        <source>Selected tool:</source>
        <translation>Ausgewähltes Tool:</translation>
    </message>
    <message>
        <source>Time:</source>
        <translation>Zeit:</translation>
    </message>
    <message>
        <source>Run:</source>
        <translation>Lauf:</translation>
    </message>
    <message>
        <source>Candidates:</source>
        <translation>Kandidaten:</translation>
    </message>
    <message>
        <source>Allowed:</source>
        <translation>Erlaubt:</translation>
    </message>
    <message>
        <source>Preferred:</source>
        <translation>Bevorzugt:</translation>
    </message>
    <message>
        <source>Ordered:</source>
        <translation>Reihenfolge:</translation>
    </message>
    <message>
        <source>Fallback:</source>
        <translation>Fallback:</translation>
    </message>
    <message>
        <source>Policy sha256:</source>
        <translation>Richtlinien-sha256:</translation>
    </message>
    <message>
        <source>Source rules:</source>
        <translation>Quellregeln:</translation>
    </message>
    <message>
        <source>Tool conflicts:</source>
        <translation>Tool-Konflikte:</translation>
    </message>
    <message>
        <source>Open the rule on the Rules page</source>
        <translation>Die Regel auf der Seite Regeln öffnen</translation>
    </message>
    <message>
        <source>Tool</source>
        <translation>Tool</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Grund</translation>
    </message>
    <message>
        <source>Denied</source>
        <translation>Abgelehnt</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>Ergebnis</translation>
    </message>
    <message>
        <source>Rule</source>
        <translation>Regel</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>Notiz</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <source>Double-click a row to open its rule</source>
        <translation>Doppelklicken Sie auf eine Zeile, um ihre Regel zu öffnen</translation>
    </message>
    <message>
        <source>Feedback</source>
        <translation>Feedback</translation>
    </message>
    <message>
        <source>Decision: nothing selected</source>
        <translation>Entscheidung: nichts ausgewählt</translation>
    </message>
    <message>
        <source>Decision: %1</source>
        <translation>Entscheidung: %1</translation>
    </message>
    <message>
        <source>%1 · created from feedback</source>
        <translation>%1 · aus Feedback erstellt</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>(keine)</translation>
    </message>
    <message>
        <source>not recorded (the decision was created from feedback)</source>
        <translation>nicht erfasst (die Entscheidung wurde aus Feedback erstellt)</translation>
    </message>
    <message>
        <source>Loading feedback…</source>
        <translation>Feedback wird geladen…</translation>
    </message>
    <message>
        <source>none — no rule shaped the policy</source>
        <translation>keine — keine Regel hat die Richtlinie geprägt</translation>
    </message>
    <message>
        <source>Denied (%1)</source>
        <translation>Abgelehnt (%1)</translation>
    </message>
    <message>
        <source>No feedback has been linked to this decision yet.</source>
        <translation>Mit dieser Entscheidung wurde noch kein Feedback verknüpft.</translation>
    </message>
    <message>
        <source>%1 (%2, commit %3)</source>
        <translation>%1 (%2, Commit %3)</translation>
    </message>
    <message>
        <source>(no rule matched)</source>
        <translation>(keine Regel hat gegriffen)</translation>
    </message>
    <message>
        <source>Feedback (%1)</source>
        <translation>Feedback (%1)</translation>
    </message>
    <message>
        <source>Loading feedback failed: %1</source>
        <translation>Laden des Feedbacks fehlgeschlagen: %1</translation>
    </message>
</context>
<context>
    <name>MemoryGraph::Ui::DecisionTableModel</name>
    <message>
        <source>(none)</source>
        <translation>(keine)</translation>
    </message>
    <message>
        <source>Decision %1</source>
        <translation>Entscheidung %1</translation>
    </message>
    <message>
        <source>No rule contributed to the policy</source>
        <translation>Keine Regel hat zur Richtlinie beigetragen</translation>
    </message>
    <message>
        <source>sha256 of the applied policy:
%1</source>
        <translation>sha256 der angewendeten Richtlinie:
%1</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Lauf</translation>
    </message>
    <message>
        <source>Selected tool</source>
        <translation>Ausgewähltes Tool</translation>
    </message>
    <message>
        <source>Candidates</source>
        <translation>Kandidaten</translation>
    </message>
    <message>
        <source>Source rules</source>
        <translation>Quellregeln</translation>
    </message>
    <message>
        <source>Policy hash</source>
        <translation>Richtlinien-Hash</translation>
    </message>
</context>
<context>
    <name>MemoryGraph::Ui::DecisionsPage</name>
    <message>
        <source>Decision</source>
        <translation>Entscheidung</translation>
    </message>
    <message>
        <source>Select a decision to see how it was made.

Decisions are recorded by tools/select and tools/feedback calls.</source>
        <translation>Wählen Sie eine Entscheidung aus, um zu sehen, wie sie zustande kam.

Entscheidungen werden durch Aufrufe von tools/select und tools/feedback erfasst.</translation>
    </message>
    <message>
        <source>Reload scopes and decisions (%1)</source>
        <translation>Bereiche und Entscheidungen neu laden (%1)</translation>
    </message>
    <message>
        <source>any run</source>
        <translation>beliebiger Lauf</translation>
    </message>
    <message>
        <source>Only decisions of this run_id (exact)</source>
        <translation>Nur Entscheidungen dieser run_id (exakt)</translation>
    </message>
    <message>
        <source>&amp;Run:</source>
        <translation>&amp;Lauf:</translation>
    </message>
    <message>
        <source>any tool</source>
        <translation>beliebiges Tool</translation>
    </message>
    <message>
        <source>Only decisions that selected this tool (exact)</source>
        <translation>Nur Entscheidungen, die dieses Tool ausgewählt haben (exakt)</translation>
    </message>
    <message>
        <source>&amp;Tool:</source>
        <translation>&amp;Tool:</translation>
    </message>
    <message>
        <source>Last hour</source>
        <translation>Letzte Stunde</translation>
    </message>
    <message>
        <source>Last day</source>
        <translation>Letzter Tag</translation>
    </message>
    <message>
        <source>Last week</source>
        <translation>Letzte Woche</translation>
    </message>
    <message>
        <source>All time</source>
        <translation>Gesamter Zeitraum</translation>
    </message>
    <message>
        <source>S&amp;ince:</source>
        <translation>&amp;Seit:</translation>
    </message>
    <message>
        <source>Decisions (newest first)</source>
        <translation>Entscheidungen (neueste zuerst)</translation>
    </message>
    <message>
        <source>Loading decisions failed: %1</source>
        <translation>Laden der Entscheidungen fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>The selected decision is not in the filtered list.</source>
        <translation>Die ausgewählte Entscheidung ist nicht in der gefilterten Liste.</translation>
    </message>
    <message>
        <source>No scope selected.</source>
        <translation>Kein Bereich ausgewählt.</translation>
    </message>
    <message>
        <source>Select a decision to see how it was made.</source>
        <translation>Wählen Sie eine Entscheidung aus, um zu sehen, wie sie zustande kam.</translation>
    </message>
    <message>
        <source>No scope selected</source>
        <translation>Kein Bereich ausgewählt</translation>
    </message>
    <message>
        <source>No decisions match</source>
        <translation>Keine passenden Entscheidungen</translation>
    </message>
    <message>
        <source>Newest %1 decisions</source>
        <translation>Neueste %1 Entscheidungen</translation>
    </message>
    <message numerus="yes">
        <source>%n decision(s)</source>
        <translation>
            <numerusform>%n Entscheidung</numerusform>
            <numerusform>%n Entscheidungen</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>MemoryGraph::Ui::ExportDialog</name>
    <message>
        <source>Export memories</source>
        <translation>Erinnerungen exportieren</translation>
    </message>
    <message>
        <source>Writes every node, edge, rule, decision, replay run and commit of one scope, in every lane, to a file another Memory Graph can import.</source>
        <translation>Schreibt jeden Knoten, jede Kante, Regel, Entscheidung, jeden Replay-Lauf und Commit eines Bereichs, in jeder Spur, in eine Datei, die ein anderes Memory Graph importieren kann.</translation>
    </message>
    <message>
        <source>Include the &amp;vectors (a store that embeds with the same model need not embed again)</source>
        <translation>Die &amp;Vektoren einschließen (ein Speicher mit demselben Embedding-Modell muss nicht neu einbetten)</translation>
    </message>
    <message>
        <source>&amp;Export…</source>
        <translation>&amp;Exportieren…</translation>
    </message>
</context>
<context>
    <name>MemoryGraph::Ui::ForgetDialog</name>
    <message>
        <source>Forget node</source>
        <translation>Knoten vergessen</translation>
    </message>
    <message>
        <source>Forget %1?</source>
        <translation>%1 vergessen?</translation>
    </message>
    <message>
        <source>The node, its edges and its vector are removed from the store and from recall. The commit log keeps the node&apos;s id, type, title and your reason, not its text. This cannot be undone.</source>
        <translation>Der Knoten, seine Kanten und sein Vektor werden aus dem Speicher und aus dem Abruf entfernt. Das Commit-Protokoll behält ID, Typ und Titel des Knotens sowie Ihren Grund, nicht aber seinen Text. Dies kann nicht rückgängig gemacht werden.</translation>
    </message>
    <message>
        <source>Why is this node forgotten?</source>
        <translation>Warum wird dieser Knoten vergessen?</translation>
    </message>
    <message>
        <source>&amp;Reason:</source>
        <translation>&amp;Grund:</translation>
    </message>
    <message>
        <source>&amp;Forget</source>
        <translation>&amp;Vergessen</translation>
    </message>
</context>
<context>
    <name>MemoryGraph::Ui::GraphCanvas</name>
    <message>
        <source>Type: %1 · Tier: %2 · Lane: %3</source>
        <translation>Typ: %1 · Stufe: %2 · Spur: %3</translation>
    </message>
    <message>
        <source>Salience %1 · Confidence %2</source>
        <translation>Salienz %1 · Konfidenz %2</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; · weight %2 · confidence %3&lt;br&gt;%4 → %5</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; · Gewicht %2 · Konfidenz %3&lt;br&gt;%4 → %5</translation>
    </message>
    <message>
        <source>Graph</source>
        <translation>Graph</translation>
    </message>
    <message>
        <source>Memory graph. Wheel or +/- to zoom, 0 to fit, drag to pan, Enter opens the selected node.</source>
        <translation>Gedächtnisgraph. Mausrad oder +/- zum Zoomen, 0 zum Einpassen, Ziehen zum Verschieben, Eingabe öffnet den ausgewählten Knoten.</translation>
    </message>
    <message>
        <source>Nothing to show yet.</source>
        <translation>Noch nichts anzuzeigen.</translation>
    </message>
    <message>
        <source>+ more</source>
        <translation>+ weitere</translation>
    </message>
    <message>
        <source>More nodes are reachable than were loaded (at most %1). Double-click a node to expand around it.</source>
        <translation>Es sind mehr Knoten erreichbar als geladen wurden (höchstens %1). Doppelklicken Sie auf einen Knoten, um um ihn herum zu erweitern.</translation>
    </message>
    <message>
        <source>+%1 more</source>
        <comment>nodes not drawn</comment>
        <translation>+%1 weitere</translation>
    </message>
    <message>
        <source>%1 more nodes were found but not drawn: the graph shows at most %2 nodes.</source>
        <translation>%1 weitere Knoten wurden gefunden, aber nicht gezeichnet: Der Graph zeigt höchstens %2 Knoten.</translation>
    </message>
    <message>
        <source>Laying out %1 nodes…</source>
        <translation>%1 Knoten werden angeordnet…</translation>
    </message>
</context>
<context>
    <name>MemoryGraph::Ui::GraphLegend</name>
    <message>
        <source>Node type (fill)</source>
        <translation>Knotentyp (Füllung)</translation>
    </message>
    <message>
        <source>Nodes of type %1</source>
        <translation>Knoten vom Typ %1</translation>
    </message>
    <message>
        <source>Tier (outline)</source>
        <translation>Stufe (Umriss)</translation>
    </message>
    <message>
        <source>hot: thick outline</source>
        <translation>hot: dicker Umriss</translation>
    </message>
    <message>
        <source>warm: normal outline</source>
        <translation>warm: normaler Umriss</translation>
    </message>
    <message>
        <source>cold: dashed outline</source>
        <translation>cold: gestrichelter Umriss</translation>
    </message>
    <message>
        <source>archive: dotted outline</source>
        <translation>archive: gepunkteter Umriss</translation>
    </message>
    <message>
        <source>Lane</source>
        <translation>Spur</translation>
    </message>
    <message>
        <source>private</source>
        <translation>privat</translation>
    </message>
    <message>
        <source>A lock marks nodes in the private lane; shared nodes have none</source>
        <translation>Ein Schloss markiert Knoten in der privaten Spur; geteilte Knoten haben keines</translation>
    </message>
</context>
<context>
    <name>MemoryGraph::Ui::GraphPage</name>
    <message>
        <source>Find node</source>
        <translation>Knoten suchen</translation>
    </message>
    <message>
        <source>Select a node on the graph to inspect it.</source>
        <translation>Wählen Sie einen Knoten im Graphen aus, um ihn zu untersuchen.</translation>
    </message>
    <message>
        <source>Search for a start node on the left, or use “Show in graph” on the Memory or Recall page.</source>
        <translation>Suchen Sie links einen Startknoten oder verwenden Sie „Im Graphen zeigen“ auf der Seite Gedächtnis oder Abruf.</translation>
    </message>
    <message>
        <source>No graph yet.</source>
        <translation>Noch kein Graph.</translation>
    </message>
    <message>
        <source>How many edges away from the start node to draw</source>
        <translation>Wie viele Kanten vom Startknoten entfernt gezeichnet wird</translation>
    </message>
    <message>
        <source>&amp;Hops:</source>
        <translation>&amp;Sprünge:</translation>
    </message>
    <message>
        <source>Reload scopes, search results and the graph (%1)</source>
        <translation>Bereiche, Suchergebnisse und Graph neu laden (%1)</translation>
    </message>
    <message>
        <source>Start node</source>
        <translation>Startknoten</translation>
    </message>
    <message>
        <source>Search, or paste a node id</source>
        <translation>Suchen oder eine Knoten-ID einfügen</translation>
    </message>
    <message>
        <source>Filters by title, summary or client id. Enter draws the first match, or the node whose id you pasted; Down moves to the list.</source>
        <translation>Filtert nach Titel, Zusammenfassung oder Client-ID. Eingabe zeichnet den ersten Treffer oder den Knoten mit der eingefügten ID; Pfeil nach unten wechselt in die Liste.</translation>
    </message>
    <message>
        <source>Enter or double-click draws the node&apos;s neighbourhood</source>
        <translation>Eingabe oder Doppelklick zeichnet die Nachbarschaft des Knotens</translation>
    </message>
    <message>
        <source>Legend</source>
        <translation>Legende</translation>
    </message>
    <message>
        <source>Graph</source>
        <translation>Graph</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>−</source>
        <translation>−</translation>
    </message>
    <message>
        <source>Zoom out</source>
        <translation>Verkleinern</translation>
    </message>
    <message>
        <source>+</source>
        <translation>+</translation>
    </message>
    <message>
        <source>Zoom in</source>
        <translation>Vergrößern</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>Einpassen</translation>
    </message>
    <message>
        <source>Fit the whole graph in view</source>
        <translation>Den ganzen Graphen in die Ansicht einpassen</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>Knoten</translation>
    </message>
    <message>
        <source>No scope selected.</source>
        <translation>Kein Bereich ausgewählt.</translation>
    </message>
    <message>
        <source>No scope selected</source>
        <translation>Kein Bereich ausgewählt</translation>
    </message>
    <message>
        <source>Search failed: %1</source>
        <translation>Suche fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>No matching nodes</source>
        <translation>Keine passenden Knoten</translation>
    </message>
    <message>
        <source>First %1 of %2 nodes</source>
        <translation>Erste %1 von %2 Knoten</translation>
    </message>
    <message>
        <source>Expanding…</source>
        <translation>Wird erweitert…</translation>
    </message>
    <message>
        <source>Loading the neighbourhood…</source>
        <translation>Nachbarschaft wird geladen…</translation>
    </message>
    <message>
        <source>Loading the graph failed: %1: %2</source>
        <translation>Laden des Graphen fehlgeschlagen: %1: %2</translation>
    </message>
    <message>
        <source>The node is not in this scope.</source>
        <translation>Der Knoten gehört nicht zu diesem Bereich.</translation>
    </message>
    <message>
        <source>Node %1 was not found in %2 / %3.</source>
        <translation>Knoten %1 wurde in %2 / %3 nicht gefunden.</translation>
    </message>
    <message>
        <source>more not shown (limit %1)</source>
        <translation>weitere nicht angezeigt (Grenze %1)</translation>
    </message>
    <message>
        <source>Double-click a node to expand it.</source>
        <translation>Doppelklicken Sie auf einen Knoten, um ihn zu erweitern.</translation>
    </message>
    <message>
        <source>%1
%2 · %3 · %4
%5</source>
        <translation>%1
%2 · %3 · %4
%5</translation>
    </message>
    <message>
        <source>1 node</source>
        <translation>1 Knoten</translation>
    </message>
    <message>
        <source>%1 nodes</source>
        <translation>%1 Knoten</translation>
    </message>
    <message>
        <source>1 hop</source>
        <translation>1 Sprung</translation>
    </message>
    <message>
        <source>%1 hops</source>
        <translation>%1 Sprünge</translation>
    </message>
    <message>
        <source>%1 nodes · %2 edges around “%3” (%4)</source>
        <translation>%1 Knoten · %2 Kanten um „%3“ (%4)</translation>
    </message>
    <message>
        <source>%1 expanded</source>
        <translation>%1 erweitert</translation>
    </message>
    <message>
        <source>Show &amp;more</source>
        <translation>&amp;Mehr zeigen</translation>
    </message>
    <message>
        <source>Add the next %1 most salient nodes to the picture</source>
        <translation>Die nächsten %1 wichtigsten Knoten zum Bild hinzufügen</translation>
    </message>
    <message>
        <source>Most &amp;salient</source>
        <translation>Die &amp;wichtigsten</translation>
    </message>
    <message>
        <source>Leave this neighbourhood and show the scope&apos;s most salient nodes again</source>
        <translation>Diese Nachbarschaft verlassen und wieder die wichtigsten Knoten des Bereichs zeigen</translation>
    </message>
    <message>
        <source>The node was forgotten. Back to the most salient nodes.</source>
        <translation>Der Knoten wurde vergessen. Zurück zu den wichtigsten Knoten.</translation>
    </message>
    <message>
        <source>Loading more salient nodes…</source>
        <translation>Weitere wichtige Knoten werden geladen…</translation>
    </message>
    <message>
        <source>Loading the most salient nodes…</source>
        <translation>Die wichtigsten Knoten werden geladen…</translation>
    </message>
    <message>
        <source>Loading the most salient nodes failed: %1: %2</source>
        <translation>Laden der wichtigsten Knoten fehlgeschlagen: %1: %2</translation>
    </message>
    <message>
        <source>This scope has no nodes yet. What agents write into it will show here.</source>
        <translation>Dieser Bereich hat noch keine Knoten. Was Agenten hineinschreiben, erscheint hier.</translation>
    </message>
    <message>
        <source>No nodes in this scope yet.</source>
        <translation>Noch keine Knoten in diesem Bereich.</translation>
    </message>
    <message>
        <source>All %1 nodes of the scope, most salient first</source>
        <translation>Alle %1 Knoten des Bereichs, die wichtigsten zuerst</translation>
    </message>
    <message>
        <source>The %1 most salient of %2 nodes</source>
        <translation>Die %1 wichtigsten von %2 Knoten</translation>
    </message>
    <message>
        <source>1 edge</source>
        <translation>1 Kante</translation>
    </message>
    <message>
        <source>%1 edges</source>
        <translation>%1 Kanten</translation>
    </message>
    <message>
        <source>the graph shows at most %1</source>
        <translation>der Graph zeigt höchstens %1</translation>
    </message>
    <message>
        <source>Double-click a node to draw its neighbourhood.</source>
        <translation>Doppelklicken Sie auf einen Knoten, um seine Nachbarschaft zu zeichnen.</translation>
    </message>
</context>
<context>
    <name>MemoryGraph::Ui::ImportDialog</name>
    <message>
        <source>Import memories</source>
        <translation>Erinnerungen importieren</translation>
    </message>
    <message>
        <source>Give every record a &amp;new id (import a copy)</source>
        <translation>Jedem Datensatz eine &amp;neue ID geben (eine Kopie importieren)</translation>
    </message>
    <message>
        <source>&amp;Rename client ids the target scope already uses</source>
        <translation>Client-IDs &amp;umbenennen, die der Zielbereich schon verwendet</translation>
    </message>
    <message>
        <source>Into &amp;tenant:</source>
        <translation>In &amp;Mandant:</translation>
    </message>
    <message>
        <source>Into s&amp;cope:</source>
        <translation>In &amp;Bereich:</translation>
    </message>
    <message>
        <source>In the file</source>
        <translation>In der Datei</translation>
    </message>
    <message>
        <source>To add</source>
        <translation>Hinzuzufügen</translation>
    </message>
    <message>
        <source>Conflicts</source>
        <translation>Konflikte</translation>
    </message>
    <message>
        <source>New ids</source>
        <translation>Neue IDs</translation>
    </message>
    <message>
        <source>Renamed client ids</source>
        <translation>Umbenannte Client-IDs</translation>
    </message>
    <message>
        <source>&amp;Import</source>
        <translation>&amp;Importieren</translation>
    </message>
    <message>
        <source>What the import adds:</source>
        <translation>Was der Import hinzufügt:</translation>
    </message>
    <message>
        <source>Conflicts with the store:</source>
        <translation>Konflikte mit dem Speicher:</translation>
    </message>
    <message>
        <source>%1
exported from %2 / %3 on %4 by Memory Graph %5</source>
        <translation>%1
exportiert aus %2 / %3 am %4 von Memory Graph %5</translation>
    </message>
    <message>
        <source>client id &apos;%1&apos; is already used in the scope</source>
        <translation>Client-ID &apos;%1&apos; wird im Bereich schon verwendet</translation>
    </message>
    <message>
        <source>id %1 already exists in the store</source>
        <translation>ID %1 existiert im Speicher bereits</translation>
    </message>
    <message>
        <source>line %1: %2 — %3</source>
        <translation>Zeile %1: %2 — %3</translation>
    </message>
    <message>
        <source>… and %1 more</source>
        <translation>… und %1 weitere</translation>
    </message>
    <message>
        <source>%1 vectors kept, %2 nodes to embed again.</source>
        <translation>%1 Vektoren übernommen, %2 Knoten werden neu eingebettet.</translation>
    </message>
    <message>
        <source>Nothing conflicts: the import can go ahead. %1</source>
        <translation>Keine Konflikte: Der Import kann erfolgen. %1</translation>
    </message>
    <message numerus="yes">
        <source>%n record(s) conflict with what the store holds. Tick “new id” and “rename client ids” to import a copy, or pick another scope.</source>
        <translation>
            <numerusform>%n Datensatz kollidiert mit dem Inhalt des Speichers. Kreuzen Sie „neue ID“ und „Client-IDs umbenennen“ an, um eine Kopie zu importieren, oder wählen Sie einen anderen Bereich.</numerusform>
            <numerusform>%n Datensätze kollidieren mit dem Inhalt des Speichers. Kreuzen Sie „neue ID“ und „Client-IDs umbenennen“ an, um eine Kopie zu importieren, oder wählen Sie einen anderen Bereich.</numerusform>
        </translation>
    </message>
    <message>
        <source>Checking again…</source>
        <translation>Erneute Prüfung…</translation>
    </message>
</context>
<context>
    <name>MemoryGraph::Ui::LayeredContextView</name>
    <message>
        <source>The layered context an agent gets from context/assemble: facts, episodes, rules, static context, decisions, tools and citations, each within its budget.</source>
        <translation>Der geschichtete Kontext, den ein Agent von context/assemble erhält: Fakten, Episoden, Regeln, statischer Kontext, Entscheidungen, Tools und Zitate, jeweils innerhalb ihres Budgets.</translation>
    </message>
    <message numerus="yes">
        <source>%1 of %2 chars in %n layer(s)</source>
        <translation>
            <numerusform>%1 von %2 Zeichen in %n Schicht</numerusform>
            <numerusform>%1 von %2 Zeichen in %n Schichten</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n item(s) dropped</source>
        <translation>
            <numerusform>%n Eintrag verworfen</numerusform>
            <numerusform>%n Einträge verworfen</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n forgotten</source>
        <translation>
            <numerusform>%n vergessen</numerusform>
            <numerusform>%n vergessen</numerusform>
        </translation>
    </message>
    <message>
        <source>selected tool: %1</source>
        <translation>ausgewähltes Tool: %1</translation>
    </message>
    <message>
        <source>Use “Assemble” to build the layered context for this query.</source>
        <translation>Mit „Zusammenstellen“ den geschichteten Kontext für diese Abfrage erzeugen.</translation>
    </message>
</context>
<context>
    <name>MemoryGraph::Ui::MainWindow</name>
    <message>
        <source>Memory Graph</source>
        <translation>Memory Graph</translation>
    </message>
    <message>
        <source>Server</source>
        <translation>Server</translation>
    </message>
    <message>
        <source>HTTP listener and request log (Ctrl+1)</source>
        <translation>HTTP-Listener und Anfrageprotokoll (Strg+1)</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>Gedächtnis</translation>
    </message>
    <message>
        <source>Browse nodes, edges and commits (Ctrl+2)</source>
        <translation>Knoten, Kanten und Commits durchsuchen (Strg+2)</translation>
    </message>
    <message>
        <source>&amp;Load sample memories</source>
        <translation>Beispiel-Erinnerungen &amp;laden</translation>
    </message>
    <message>
        <source>Write a small example memory graph into the default scope</source>
        <translation>Einen kleinen Beispiel-Gedächtnisgraphen in den Standardbereich schreiben</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>&amp;About Memory Graph</source>
        <translation>&amp;Über Memory Graph</translation>
    </message>
    <message>
        <source>&amp;Server</source>
        <translation>&amp;Server</translation>
    </message>
    <message>
        <source>&amp;Memory</source>
        <translation>&amp;Gedächtnis</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <source>Loading sample memories…</source>
        <translation>Beispiel-Erinnerungen werden geladen…</translation>
    </message>
    <message>
        <source>Loaded %1 of %2 sample writes: %3 nodes, %4 edges.</source>
        <translation>%1 von %2 Beispiel-Schreibvorgängen geladen: %3 Knoten, %4 Kanten.</translation>
    </message>
    <message>
        <source>They were already stored, so nothing changed.</source>
        <translation>Sie waren bereits gespeichert; nichts wurde geändert.</translation>
    </message>
    <message>
        <source>Sample memories</source>
        <translation>Beispiel-Erinnerungen</translation>
    </message>
    <message>
        <source>Some sample memories could not be written.</source>
        <translation>Einige Beispiel-Erinnerungen konnten nicht geschrieben werden.</translation>
    </message>
    <message>
        <source>1 scope</source>
        <translation>1 Bereich</translation>
    </message>
    <message>
        <source>%1 scopes</source>
        <translation>%1 Bereiche</translation>
    </message>
    <message>
        <source>%1 nodes · %2 edges · %3 commits in %4</source>
        <translation>%1 Knoten · %2 Kanten · %3 Commits in %4</translation>
    </message>
    <message>
        <source>About Memory Graph</source>
        <translation>Über Memory Graph</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Memory Graph %1&lt;/h3&gt;&lt;p&gt;An agent-memory graph service with a desktop console. Agents use the HTTP &lt;code&gt;/v1&lt;/code&gt; API; operators browse the same graph here.&lt;/p&gt;&lt;p&gt;Licensed under the GNU GPL, version 3 or later.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Memory Graph %1&lt;/h3&gt;&lt;p&gt;Ein Gedächtnisgraph-Dienst für Agenten mit Desktop-Konsole. Agenten nutzen die HTTP-API &lt;code&gt;/v1&lt;/code&gt;; Betreiber durchsuchen hier denselben Graphen.&lt;/p&gt;&lt;p&gt;Lizenziert unter der GNU GPL, Version 3 oder neuer.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Recall</source>
        <translation>Abruf</translation>
    </message>
    <message>
        <source>Run recall_text and see seeds, ranking, context and subgraph (Ctrl+3)</source>
        <translation>recall_text ausführen und Startknoten, Rangliste, Kontext und Teilgraph ansehen (Strg+3)</translation>
    </message>
    <message>
        <source>Graph</source>
        <translation>Graph</translation>
    </message>
    <message>
        <source>Draw a node&apos;s neighbourhood (Ctrl+4)</source>
        <translation>Die Nachbarschaft eines Knotens zeichnen (Strg+4)</translation>
    </message>
    <message>
        <source>&amp;Recall</source>
        <translation>&amp;Abruf</translation>
    </message>
    <message>
        <source>&amp;Graph</source>
        <translation>G&amp;raph</translation>
    </message>
    <message>
        <source>Rules</source>
        <translation>Regeln</translation>
    </message>
    <message>
        <source>Edit rules, switch them between shadow and active, try them (Ctrl+5)</source>
        <translation>Regeln bearbeiten, zwischen shadow und active umschalten, ausprobieren (Strg+5)</translation>
    </message>
    <message>
        <source>Decisions</source>
        <translation>Entscheidungen</translation>
    </message>
    <message>
        <source>Tool-selection decisions and their feedback (Ctrl+6)</source>
        <translation>Entscheidungen der Tool-Auswahl und ihr Feedback (Strg+6)</translation>
    </message>
    <message>
        <source>Replay</source>
        <translation>Wiedergabe</translation>
    </message>
    <message>
        <source>Recorded runs step by step, with their decisions and feedback (Ctrl+7)</source>
        <translation>Aufgezeichnete Läufe Schritt für Schritt, mit ihren Entscheidungen und ihrem Feedback (Strg+7)</translation>
    </message>
    <message>
        <source>Audit</source>
        <translation>Audit</translation>
    </message>
    <message>
        <source>Commits by scope, chain verification and maintenance jobs (Ctrl+8)</source>
        <translation>Commits nach Bereich, Kettenprüfung und Wartungsaufgaben (Strg+8)</translation>
    </message>
    <message>
        <source>R&amp;ules</source>
        <translation>Rege&amp;ln</translation>
    </message>
    <message>
        <source>&amp;Decisions</source>
        <translation>&amp;Entscheidungen</translation>
    </message>
    <message>
        <source>Re&amp;play</source>
        <translation>&amp;Wiedergabe</translation>
    </message>
    <message>
        <source>&amp;Audit</source>
        <translation>A&amp;udit</translation>
    </message>
    <message>
        <source>Automations</source>
        <translation>Automatisierungen</translation>
    </message>
    <message>
        <source>Automation definitions, runs, reviews and telemetry (Ctrl+9)</source>
        <translation>Automatisierungsdefinitionen, Läufe, Prüfungen und Telemetrie (Strg+9)</translation>
    </message>
    <message>
        <source>&amp;Export…</source>
        <translation>&amp;Exportieren…</translation>
    </message>
    <message>
        <source>Write a scope to a file another Memory Graph can import</source>
        <translation>Einen Bereich in eine Datei schreiben, die ein anderes Memory Graph importieren kann</translation>
    </message>
    <message>
        <source>&amp;Import…</source>
        <translation>&amp;Importieren…</translation>
    </message>
    <message>
        <source>Check an export file and import it into a scope</source>
        <translation>Eine Exportdatei prüfen und in einen Bereich importieren</translation>
    </message>
    <message>
        <source>&amp;Preferences…</source>
        <translation>&amp;Einstellungen…</translation>
    </message>
    <message>
        <source>Keep serving in the tray when the window is closed, start at login</source>
        <translation>Im Infobereich weiter Anfragen bedienen, wenn das Fenster geschlossen ist; Start bei der Anmeldung</translation>
    </message>
    <message>
        <source>&amp;Welcome</source>
        <translation>&amp;Willkommen</translation>
    </message>
    <message>
        <source>Where agents connect, client snippets, sample memories and import</source>
        <translation>Wo Agenten sich verbinden, Client-Beispiele, Beispiel-Erinnerungen und Import</translation>
    </message>
    <message>
        <source>Au&amp;tomations</source>
        <translation>Au&amp;tomatisierungen</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>&amp;Bearbeiten</translation>
    </message>
</context>
<context>
    <name>MemoryGraph::Ui::MemoryPage</name>
    <message>
        <source>Node</source>
        <translation>Knoten</translation>
    </message>
    <message>
        <source>No node selected.

Load the sample memories from the File menu, or write through the HTTP API, to see nodes here.</source>
        <translation>Kein Knoten ausgewählt.

Laden Sie die Beispiel-Erinnerungen über das Menü „Datei“ oder schreiben Sie über die HTTP-API, um hier Knoten zu sehen.</translation>
    </message>
    <message>
        <source>Reload scopes, nodes and commits (%1)</source>
        <translation>Bereiche, Knoten und Commits neu laden (%1)</translation>
    </message>
    <message>
        <source>Filter by title, summary or client id</source>
        <translation>Nach Titel, Zusammenfassung oder Client-ID filtern</translation>
    </message>
    <message>
        <source>All types</source>
        <translation>Alle Typen</translation>
    </message>
    <message>
        <source>All tiers</source>
        <translation>Alle Stufen</translation>
    </message>
    <message>
        <source>All lanes</source>
        <translation>Alle Spuren</translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation>Knoten</translation>
    </message>
    <message>
        <source>Show in &amp;Graph</source>
        <translation>Im &amp;Graphen zeigen</translation>
    </message>
    <message>
        <source>Open the Graph page centred on this node (%1)</source>
        <translation>Die Graph-Seite mit diesem Knoten in der Mitte öffnen (%1)</translation>
    </message>
    <message>
        <source>Previous</source>
        <translation>Zurück</translation>
    </message>
    <message>
        <source>Next</source>
        <translation>Weiter</translation>
    </message>
    <message>
        <source>Commits</source>
        <translation>Commits</translation>
    </message>
    <message>
        <source>Commits (newest %1)</source>
        <translation>Commits (neueste %1)</translation>
    </message>
    <message>
        <source>Commits (%1, newest first)</source>
        <translation>Commits (%1, neueste zuerst)</translation>
    </message>
    <message>
        <source>Select a node to inspect it.</source>
        <translation>Wählen Sie einen Knoten aus, um ihn zu untersuchen.</translation>
    </message>
    <message>
        <source>No scope selected</source>
        <translation>Kein Bereich ausgewählt</translation>
    </message>
    <message>
        <source>No nodes</source>
        <translation>Keine Knoten</translation>
    </message>
    <message>
        <source>Rows %1–%2 of %3</source>
        <translation>Zeilen %1–%2 von %3</translation>
    </message>
    <message>
        <source>The node was forgotten.</source>
        <translation>Der Knoten wurde vergessen.</translation>
    </message>
    <message>
        <source>Loading nodes failed: %1</source>
        <translation>Laden der Knoten fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Loading commits failed: %1</source>
        <translation>Laden der Commits fehlgeschlagen: %1</translation>
    </message>
</context>
<context>
    <name>MemoryGraph::Ui::NodeActions</name>
    <message>
        <source>Rehydrate to &amp;warm</source>
        <translation>Nach &amp;warm zurückholen</translation>
    </message>
    <message>
        <source>Rehydrate to &amp;hot</source>
        <translation>Nach &amp;hot zurückholen</translation>
    </message>
    <message>
        <source>Record &amp;activation…</source>
        <translation>&amp;Aktivierung erfassen…</translation>
    </message>
    <message>
        <source>&amp;Edit…</source>
        <translation>&amp;Bearbeiten…</translation>
    </message>
    <message>
        <source>&amp;Forget…</source>
        <translation>&amp;Vergessen…</translation>
    </message>
    <message>
        <source>To warm</source>
        <translation>Nach warm</translation>
    </message>
    <message>
        <source>To hot</source>
        <translation>Nach hot</translation>
    </message>
    <message>
        <source>Activate…</source>
        <translation>Aktivieren…</translation>
    </message>
    <message>
        <source>Edit…</source>
        <translation>Bearbeiten…</translation>
    </message>
    <message>
        <source>Forget…</source>
        <translation>Vergessen…</translation>
    </message>
    <message>
        <source>Move an archived or cold node back to the warm tier</source>
        <translation>Einen archivierten oder kalten Knoten zurück in die Stufe warm verschieben</translation>
    </message>
    <message>
        <source>Move the node up to the hot tier</source>
        <translation>Den Knoten in die Stufe hot hochstufen</translation>
    </message>
    <message>
        <source>Record that the node was used, with its outcome</source>
        <translation>Erfassen, dass der Knoten verwendet wurde, mit dem Ergebnis</translation>
    </message>
    <message>
        <source>Change the node&apos;s title, summary, tier, lane, salience or slots</source>
        <translation>Titel, Zusammenfassung, Stufe, Spur, Salienz oder Slots des Knotens ändern</translation>
    </message>
    <message>
        <source>Remove the node, its edges and its vector</source>
        <translation>Den Knoten, seine Kanten und seinen Vektor entfernen</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>Knoten</translation>
    </message>
    <message>
        <source>“%1” (%2)</source>
        <translation>„%1“ (%2)</translation>
    </message>
    <message>
        <source>The change was not made</source>
        <translation>Die Änderung wurde nicht vorgenommen</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>Node action failed</source>
        <translation>Knotenaktion fehlgeschlagen</translation>
    </message>
    <message>
        <source>%1 is already at or above %2.</source>
        <translation>%1 ist bereits auf oder über %2.</translation>
    </message>
    <message>
        <source>Moved %1 to %2.</source>
        <translation>%1 nach %2 verschoben.</translation>
    </message>
    <message>
        <source>Recorded a %1 activation of %2.</source>
        <translation>Aktivierung von %2 mit Ergebnis %1 erfasst.</translation>
    </message>
    <message>
        <source>Nothing to change in %1.</source>
        <translation>Bei %1 gibt es nichts zu ändern.</translation>
    </message>
    <message>
        <source>Edited %1: %2.</source>
        <translation>%1 bearbeitet: %2.</translation>
    </message>
    <message>
        <source>The new text is being embedded.</source>
        <translation>Für den neuen Text wird das Embedding berechnet.</translation>
    </message>
    <message numerus="yes">
        <source>Forgot %1 and %n edge(s).</source>
        <translation>
            <numerusform>%1 und %n Kante vergessen.</numerusform>
            <numerusform>%1 und %n Kanten vergessen.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>MemoryGraph::Ui::NodeEditDialog</name>
    <message>
        <source>Edit node</source>
        <translation>Knoten bearbeiten</translation>
    </message>
    <message>
        <source>Editing %1 node %2. Changing the text re-embeds the node.</source>
        <translation>%1-Knoten %2 wird bearbeitet. Eine Textänderung berechnet das Embedding des Knotens neu.</translation>
    </message>
    <message>
        <source>&amp;Title:</source>
        <translation>&amp;Titel:</translation>
    </message>
    <message>
        <source>&amp;Summary:</source>
        <translation>&amp;Zusammenfassung:</translation>
    </message>
    <message>
        <source>T&amp;ier:</source>
        <translation>&amp;Stufe:</translation>
    </message>
    <message>
        <source>&amp;Lane:</source>
        <translation>S&amp;pur:</translation>
    </message>
    <message>
        <source>Owner &amp;agent:</source>
        <translation>Eigentümer-&amp;Agent:</translation>
    </message>
    <message>
        <source>Owner t&amp;eam:</source>
        <translation>Eigentümer-T&amp;eam:</translation>
    </message>
    <message>
        <source>Sa&amp;lience:</source>
        <translation>Sa&amp;lienz:</translation>
    </message>
    <message>
        <source>Sl&amp;ots (JSON):</source>
        <translation>Sl&amp;ots (JSON):</translation>
    </message>
    <message>
        <source>Not valid JSON at character %1: %2</source>
        <translation>Kein gültiges JSON bei Zeichen %1: %2</translation>
    </message>
    <message>
        <source>Slots must be a JSON object.</source>
        <translation>Slots müssen ein JSON-Objekt sein.</translation>
    </message>
    <message numerus="yes">
        <source>Valid JSON object with %n key(s).</source>
        <translation>
            <numerusform>Gültiges JSON-Objekt mit %n Schlüssel.</numerusform>
            <numerusform>Gültiges JSON-Objekt mit %n Schlüsseln.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>MemoryGraph::Ui::NodeInspector</name>
    <message>
        <source>Select a node to inspect it.</source>
        <translation>Wählen Sie einen Knoten aus, um ihn zu untersuchen.</translation>
    </message>
    <message>
        <source>Show in &amp;graph</source>
        <translation>Im &amp;Graphen zeigen</translation>
    </message>
    <message>
        <source>Open the Graph page centred on this node</source>
        <translation>Die Graph-Seite mit diesem Knoten in der Mitte öffnen</translation>
    </message>
    <message>
        <source>Field</source>
        <translation>Feld</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Typ</translation>
    </message>
    <message>
        <source>Direction</source>
        <translation>Richtung</translation>
    </message>
    <message>
        <source>Other node</source>
        <translation>Anderer Knoten</translation>
    </message>
    <message>
        <source>Weight</source>
        <translation>Gewicht</translation>
    </message>
    <message>
        <source>Confidence</source>
        <translation>Konfidenz</translation>
    </message>
    <message>
        <source>Other node id</source>
        <translation>ID des anderen Knotens</translation>
    </message>
    <message>
        <source>Double-click an edge to open the node at its other end</source>
        <translation>Doppelklicken Sie auf eine Kante, um den Knoten an ihrem anderen Ende zu öffnen</translation>
    </message>
    <message>
        <source>Edges</source>
        <translation>Kanten</translation>
    </message>
    <message>
        <source>Fields</source>
        <translation>Felder</translation>
    </message>
    <message>
        <source>Slots</source>
        <translation>Slots</translation>
    </message>
    <message>
        <source>(untitled %1)</source>
        <translation>(ohne Titel %1)</translation>
    </message>
    <message>
        <source>Identity</source>
        <translation>Identität</translation>
    </message>
    <message>
        <source>Ownership</source>
        <translation>Eigentümer</translation>
    </message>
    <message>
        <source>Content</source>
        <translation>Inhalt</translation>
    </message>
    <message>
        <source>Embedding</source>
        <translation>Embedding</translation>
    </message>
    <message>
        <source>Scores</source>
        <translation>Bewertungen</translation>
    </message>
    <message>
        <source>Times</source>
        <translation>Zeiten</translation>
    </message>
    <message>
        <source>never</source>
        <translation>nie</translation>
    </message>
    <message>
        <source>↺ self</source>
        <translation>↺ selbst</translation>
    </message>
    <message>
        <source>This node points to itself</source>
        <translation>Dieser Knoten zeigt auf sich selbst</translation>
    </message>
    <message>
        <source>→ out</source>
        <translation>→ ausgehend</translation>
    </message>
    <message>
        <source>This node → other node</source>
        <translation>Dieser Knoten → anderer Knoten</translation>
    </message>
    <message>
        <source>← in</source>
        <translation>← eingehend</translation>
    </message>
    <message>
        <source>Other node → this node</source>
        <translation>Anderer Knoten → dieser Knoten</translation>
    </message>
    <message>
        <source>Edges (%1)</source>
        <translation>Kanten (%1)</translation>
    </message>
    <message>
        <source>The node no longer exists.</source>
        <translation>Der Knoten existiert nicht mehr.</translation>
    </message>
    <message>
        <source>Could not load the node:
%1</source>
        <translation>Der Knoten konnte nicht geladen werden:
%1</translation>
    </message>
</context>
<context>
    <name>MemoryGraph::Ui::NodeTableModel</name>
    <message>
        <source>team %1</source>
        <translation>Team %1</translation>
    </message>
    <message>
        <source>Owner agent: %1
Owner team: %2
Producer: %3</source>
        <translation>Eigentümer-Agent: %1
Eigentümer-Team: %2
Erzeuger: %3</translation>
    </message>
    <message>
        <source>Title</source>
        <translation>Titel</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Typ</translation>
    </message>
    <message>
        <source>Tier</source>
        <translation>Stufe</translation>
    </message>
    <message>
        <source>Lane</source>
        <translation>Spur</translation>
    </message>
    <message>
        <source>Owner</source>
        <translation>Eigentümer</translation>
    </message>
    <message>
        <source>Embedding</source>
        <translation>Embedding</translation>
    </message>
    <message>
        <source>Updated</source>
        <translation>Aktualisiert</translation>
    </message>
    <message>
        <source>Client id</source>
        <translation>Client-ID</translation>
    </message>
    <message>
        <source>Id</source>
        <translation>ID</translation>
    </message>
</context>
<context>
    <name>MemoryGraph::Ui::OperationProgress</name>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Copying pages</source>
        <translation>Seiten werden kopiert</translation>
    </message>
    <message>
        <source>Checking the copy with SQLite&apos;s integrity check</source>
        <translation>Die Kopie wird mit der Integritätsprüfung von SQLite geprüft</translation>
    </message>
    <message>
        <source>Verifying commits</source>
        <translation>Commits werden geprüft</translation>
    </message>
    <message>
        <source>Reading nodes</source>
        <translation>Knoten werden gelesen</translation>
    </message>
    <message>
        <source>Comparing embeddings</source>
        <translation>Embeddings werden verglichen</translation>
    </message>
    <message>
        <source>Applying</source>
        <translation>Wird angewendet</translation>
    </message>
</context>
<context>
    <name>MemoryGraph::Ui::PageSkeleton</name>
    <message>
        <source>Refresh</source>
        <translation>Aktualisieren</translation>
    </message>
</context>
<context>
    <name>MemoryGraph::Ui::PlaybookPanel</name>
    <message>
        <source>Playbooks of this scope: name, latest version and status</source>
        <translation>Playbooks dieses Bereichs: Name, neueste Version und Status</translation>
    </message>
    <message>
        <source>Version</source>
        <translation>Version</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Review</source>
        <translation>Prüfung</translation>
    </message>
    <message>
        <source>From</source>
        <translation>Aus</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>Schritte</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Erstellt</translation>
    </message>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>Tool</source>
        <translation>Werkzeug</translation>
    </message>
    <message>
        <source>Input template</source>
        <translation>Eingabevorlage</translation>
    </message>
    <message>
        <source>Preconditions</source>
        <translation>Vorbedingungen</translation>
    </message>
    <message>
        <source>Safety</source>
        <translation>Sicherheit</translation>
    </message>
    <message>
        <source>Quality</source>
        <translation>Qualität</translation>
    </message>
    <message>
        <source>&amp;Approve repair</source>
        <translation>Reparatur &amp;freigeben</translation>
    </message>
    <message>
        <source>Approve the shown repair: its readiness is validated in-process and it becomes a shadow version when nothing is blocked</source>
        <translation>Die gezeigte Reparatur freigeben: Ihre Bereitschaft wird im Prozess geprüft, und sie wird eine Shadow-Version, wenn nichts blockiert ist</translation>
    </message>
    <message>
        <source>Re&amp;ject repair</source>
        <translation>Reparatur &amp;ablehnen</translation>
    </message>
    <message>
        <source>Promote &amp;to:</source>
        <translation>Hochstufen &amp;zu:</translation>
    </message>
    <message>
        <source>&amp;Promote</source>
        <translation>&amp;Hochstufen</translation>
    </message>
    <message>
        <source>Write the shown version again as a new version in the chosen status (an older version: a rollback)</source>
        <translation>Die gezeigte Version erneut als neue Version im gewählten Status schreiben (bei einer älteren Version: ein Rollback)</translation>
    </message>
    <message>
        <source>Versions (newest first)</source>
        <translation>Versionen (neueste zuerst)</translation>
    </message>
    <message>
        <source>Steps of the shown version</source>
        <translation>Schritte der gezeigten Version</translation>
    </message>
    <message>
        <source>Repair</source>
        <translation>Reparatur</translation>
    </message>
    <message>
        <source>Loading playbooks failed: %1</source>
        <translation>Laden der Playbooks fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>%1 · v%2 · %3</source>
        <translation>%1 · v%2 · %3</translation>
    </message>
    <message>
        <source>%1
%2 steps, compiled from run %3</source>
        <translation>%1
%2 Schritte, kompiliert aus Lauf %3</translation>
    </message>
    <message>
        <source>Loading the playbook failed: %1</source>
        <translation>Laden des Playbooks fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>never run</source>
        <translation>nie ausgeführt</translation>
    </message>
    <message>
        <source>last run %1: %2</source>
        <translation>letzter Lauf %1: %2</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; — version %2 of %3, %4, risk %5, %6&lt;br&gt;&lt;small&gt;%7 · compiled from run %8&lt;/small&gt;</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; — Version %2 von %3, %4, Risiko %5, %6&lt;br&gt;&lt;small&gt;%7 · kompiliert aus Lauf %8&lt;/small&gt;</translation>
    </message>
    <message>
        <source>Repair of version %1, review: %2</source>
        <translation>Reparatur von Version %1, Prüfung: %2</translation>
    </message>
    <message>
        <source>Carries the repair of version %1, review: %2</source>
        <translation>Enthält die Reparatur von Version %1, Prüfung: %2</translation>
    </message>
    <message>
        <source>
Note: %1</source>
        <translation>
Hinweis: %1</translation>
    </message>
    <message>
        <source>
Patch: %1
</source>
        <translation>
Patch: %1
</translation>
    </message>
    <message>
        <source>Readiness check: %1 (%2 of %3 steps ready, %4 blocked)</source>
        <translation>Bereitschaftsprüfung: %1 (%2 von %3 Schritten bereit, %4 blockiert)</translation>
    </message>
    <message>
        <source>passed</source>
        <translation>bestanden</translation>
    </message>
    <message>
        <source>blocked</source>
        <translation>blockiert</translation>
    </message>
    <message>
        <source>Version %1 is not a repair.</source>
        <translation>Version %1 ist keine Reparatur.</translation>
    </message>
    <message>
        <source>%1 in v%2</source>
        <translation>%1 in v%2</translation>
    </message>
    <message>
        <source>v%1 repairs v%2: %3</source>
        <translation>v%1 repariert v%2: %3</translation>
    </message>
    <message>
        <source>

Repairs of this playbook:
</source>
        <translation>

Reparaturen dieses Playbooks:
</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>Review recorded: version %1 is %2 (%3).</source>
        <translation>Prüfung erfasst: Version %1 ist %2 (%3).</translation>
    </message>
    <message>
        <source>Unchanged: the latest version already has that status.</source>
        <translation>Unverändert: Die neueste Version hat diesen Status bereits.</translation>
    </message>
    <message>
        <source>Promoted: version %1 is %2.</source>
        <translation>Hochgestuft: Version %1 ist %2.</translation>
    </message>
    <message>
        <source>Compiling a playbook from run %1…</source>
        <translation>Ein Playbook wird aus Lauf %1 kompiliert…</translation>
    </message>
    <message>
        <source>Compiling failed: %1 (%2)</source>
        <translation>Kompilieren fehlgeschlagen: %1 (%2)</translation>
    </message>
    <message>
        <source>Compiled playbook %1 (version %2, %3 steps).</source>
        <translation>Playbook %1 kompiliert (Version %2, %3 Schritte).</translation>
    </message>
    <message>
        <source>No playbooks in this scope yet. Compile one from a finished run (Runs: “Compile playbook from this run”).</source>
        <translation>Noch keine Playbooks in diesem Bereich. Kompilieren Sie eines aus einem abgeschlossenen Lauf (Läufe: „Playbook aus diesem Lauf kompilieren“).</translation>
    </message>
</context>
<context>
    <name>MemoryGraph::Ui::PortabilityFlow</name>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Memory Graph</source>
        <translation>Memory Graph</translation>
    </message>
    <message>
        <source>Export memories</source>
        <translation>Erinnerungen exportieren</translation>
    </message>
    <message>
        <source>Exporting %1 / %2…</source>
        <translation>%1 / %2 wird exportiert…</translation>
    </message>
    <message>
        <source>The export was cancelled; no file was written.</source>
        <translation>Der Export wurde abgebrochen; keine Datei wurde geschrieben.</translation>
    </message>
    <message>
        <source>The export failed: %1</source>
        <translation>Der Export ist fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Exported %1 / %2 to %3: %4.</source>
        <translation>%1 / %2 nach %3 exportiert: %4.</translation>
    </message>
    <message>
        <source>Import memories</source>
        <translation>Erinnerungen importieren</translation>
    </message>
    <message>
        <source>Checking %1…</source>
        <translation>%1 wird geprüft…</translation>
    </message>
    <message>
        <source>%1 cannot be imported: %2</source>
        <translation>%1 kann nicht importiert werden: %2</translation>
    </message>
    <message>
        <source>Importing %1…</source>
        <translation>%1 wird importiert…</translation>
    </message>
    <message>
        <source>The import was cancelled; nothing was written.</source>
        <translation>Der Import wurde abgebrochen; nichts wurde geschrieben.</translation>
    </message>
    <message>
        <source>The import failed; nothing was written: %1</source>
        <translation>Der Import ist fehlgeschlagen; nichts wurde geschrieben: %1</translation>
    </message>
    <message numerus="yes">
        <source>Imported %1 into %2 / %3, recorded as %n new commit(s) of its chain.</source>
        <translation>
            <numerusform>%1 in %2 / %3 importiert, erfasst als %n neuer Commit seiner Kette.</numerusform>
            <numerusform>%1 in %2 / %3 importiert, erfasst als %n neue Commits seiner Kette.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n node(s) are being embedded in the background.</source>
        <translation>
            <numerusform>%n Knoten wird im Hintergrund eingebettet.</numerusform>
            <numerusform>%n Knoten werden im Hintergrund eingebettet.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>MemoryGraph::Ui::RankedTableModel</name>
    <message>
        <source>Node %1</source>
        <translation>Knoten %1</translation>
    </message>
    <message>
        <source>%1 node %2</source>
        <translation>%1-Knoten %2</translation>
    </message>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>Title</source>
        <translation>Titel</translation>
    </message>
    <message>
        <source>Activation</source>
        <translation>Aktivierung</translation>
    </message>
    <message>
        <source>Score</source>
        <translation>Wertung</translation>
    </message>
</context>
<context>
    <name>MemoryGraph::Ui::RecallPage</name>
    <message>
        <source>Run recall</source>
        <translation>Abruf ausführen</translation>
    </message>
    <message>
        <source>Edit query</source>
        <translation>Anfrage bearbeiten</translation>
    </message>
    <message>
        <source>Type a query and press Enter. The embedding provider is “%1”.</source>
        <translation>Geben Sie eine Anfrage ein und drücken Sie Eingabe. Der Embedding-Anbieter ist „%1“.</translation>
    </message>
    <message>
        <source>What should the agent remember? e.g. “sync stalls after the update”</source>
        <translation>Woran soll sich der Agent erinnern? z. B. „Synchronisierung hängt nach dem Update“</translation>
    </message>
    <message>
        <source>&amp;Query:</source>
        <translation>&amp;Anfrage:</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Ausführen</translation>
    </message>
    <message>
        <source>Run recall_text with these settings (Enter in the query, or Ctrl+Enter)</source>
        <translation>recall_text mit diesen Einstellungen ausführen (Eingabe in der Anfrage oder Strg+Eingabe)</translation>
    </message>
    <message>
        <source>Recall running</source>
        <translation>Abruf läuft</translation>
    </message>
    <message>
        <source>Opt&amp;ions</source>
        <translation>Opt&amp;ionen</translation>
    </message>
    <message>
        <source>Show or hide the recall knobs, budgets and consumer</source>
        <translation>Abrufparameter, Budgets und Konsument ein- oder ausblenden</translation>
    </message>
    <message>
        <source>Server default (%1)</source>
        <translation>Serverstandard (%1)</translation>
    </message>
    <message>
        <source>Pro&amp;file:</source>
        <translation>Pro&amp;fil:</translation>
    </message>
    <message>
        <source>&amp;Limit:</source>
        <translation>&amp;Limit:</translation>
    </message>
    <message>
        <source>H&amp;ops:</source>
        <translation>S&amp;prünge:</translation>
    </message>
    <message>
        <source>Neighbourhood hops around the seeds (1 or 2)</source>
        <translation>Nachbarschaftssprünge um die Startknoten (1 oder 2)</translation>
    </message>
    <message>
        <source>Max &amp;nodes:</source>
        <translation>Max. &amp;Knoten:</translation>
    </message>
    <message>
        <source>Max &amp;edges:</source>
        <translation>Max. &amp;Kanten:</translation>
    </message>
    <message>
        <source>&amp;Ranked limit:</source>
        <translation>&amp;Ranglisten-Limit:</translation>
    </message>
    <message>
        <source>Min edge &amp;weight:</source>
        <translation>Min. Kanten&amp;gewicht:</translation>
    </message>
    <message>
        <source>Min edge confi&amp;dence:</source>
        <translation>Min. Kanten&amp;konfidenz:</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>context_token_budget: compacts the context text towards this many (estimated) tokens; items and citations stay whole. 0 = not sent.</source>
        <translation>context_token_budget: verdichtet den Kontexttext auf ungefähr so viele (geschätzte) Tokens; Einträge und Zitate bleiben vollständig. 0 = nicht gesendet.</translation>
    </message>
    <message>
        <source>&amp;Token budget:</source>
        <translation>&amp;Token-Budget:</translation>
    </message>
    <message>
        <source>context_char_budget: a direct character budget; wins over the token budget. 0 = not sent.</source>
        <translation>context_char_budget: ein direktes Zeichenbudget; hat Vorrang vor dem Token-Budget. 0 = nicht gesendet.</translation>
    </message>
    <message>
        <source>&amp;Char budget:</source>
        <translation>&amp;Zeichenbudget:</translation>
    </message>
    <message>
        <source>context_compaction_profile: balanced keeps richer rule and event detail; aggressive trims event fanout and rule JSON earlier</source>
        <translation>context_compaction_profile: balanced behält mehr Regel- und Ereignisdetails; aggressive kürzt Ereignis-Auffächerung und Regel-JSON früher</translation>
    </message>
    <message>
        <source>Com&amp;paction:</source>
        <translation>&amp;Verdichtung:</translation>
    </message>
    <message>
        <source>%1 (local)</source>
        <translation>%1 (lokal)</translation>
    </message>
    <message>
        <source>none: shared only</source>
        <translation>keiner: nur geteilte</translation>
    </message>
    <message>
        <source>consumer_agent_id: private nodes are visible to their owner only</source>
        <translation>consumer_agent_id: private Knoten sind nur für ihren Eigentümer sichtbar</translation>
    </message>
    <message>
        <source>Consumer &amp;agent:</source>
        <translation>Konsumierender &amp;Agent:</translation>
    </message>
    <message>
        <source>consumer_team_id: also shows the team&apos;s private nodes</source>
        <translation>consumer_team_id: zeigt auch die privaten Knoten des Teams</translation>
    </message>
    <message>
        <source>Consumer tea&amp;m:</source>
        <translation>Konsumierendes Tea&amp;m:</translation>
    </message>
    <message>
        <source>Reset &amp;knobs</source>
        <translation>&amp;Parameter zurücksetzen</translation>
    </message>
    <message>
        <source>Back to the profile&apos;s values; edited knobs are no longer sent</source>
        <translation>Zurück zu den Werten des Profils; bearbeitete Parameter werden nicht mehr gesendet</translation>
    </message>
    <message>
        <source>Show in &amp;Graph</source>
        <translation>Im &amp;Graphen zeigen</translation>
    </message>
    <message>
        <source>Seeds</source>
        <translation>Startknoten</translation>
    </message>
    <message>
        <source>The prompt-ready context. Click a line that names a node (node:…) to inspect that node.</source>
        <translation>Der promptfertige Kontext. Klicken Sie auf eine Zeile, die einen Knoten nennt (node:…), um ihn zu untersuchen.</translation>
    </message>
    <message>
        <source>Context</source>
        <translation>Kontext</translation>
    </message>
    <message>
        <source>Ranked</source>
        <translation>Rangliste</translation>
    </message>
    <message>
        <source>Subgraph</source>
        <translation>Teilgraph</translation>
    </message>
    <message>
        <source>The recalled subgraph appears here. Seeds are drawn larger.</source>
        <translation>Hier erscheint der abgerufene Teilgraph. Startknoten werden größer gezeichnet.</translation>
    </message>
    <message>
        <source>Legend</source>
        <translation>Legende</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>Einpassen</translation>
    </message>
    <message>
        <source>Fit the whole subgraph in view (0 on the canvas)</source>
        <translation>Den ganzen Teilgraphen in die Ansicht einpassen (0 auf der Zeichenfläche)</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>Knoten</translation>
    </message>
    <message>
        <source>No knobs sent: the server&apos;s profile policy applies (%1, from %2).</source>
        <translation>Keine Parameter gesendet: Es gilt die Profilrichtlinie des Servers (%1, aus %2).</translation>
    </message>
    <message>
        <source>All seven knobs are sent (bold).</source>
        <translation>Alle sieben Parameter werden gesendet (fett).</translation>
    </message>
    <message>
        <source>All seven knobs are sent: %1 values, plus your edits.</source>
        <translation>Alle sieben Parameter werden gesendet: Werte von %1 plus Ihre Änderungen.</translation>
    </message>
    <message>
        <source>Sent (bold): %1. The rest follow the server&apos;s profile (%2).</source>
        <translation>Gesendet (fett): %1. Die übrigen folgen dem Profil des Servers (%2).</translation>
    </message>
    <message>
        <source>Type a query first.</source>
        <translation>Geben Sie zuerst eine Anfrage ein.</translation>
    </message>
    <message>
        <source>Running recall_text…</source>
        <translation>recall_text läuft…</translation>
    </message>
    <message>
        <source>Running…</source>
        <translation>Läuft…</translation>
    </message>
    <message>
        <source>No context yet.</source>
        <translation>Noch kein Kontext.</translation>
    </message>
    <message>
        <source>Run a recall, then select a seed, a ranked entry or a node on the subgraph to inspect it.</source>
        <translation>Führen Sie einen Abruf aus und wählen Sie dann einen Startknoten, einen Ranglisteneintrag oder einen Knoten im Teilgraphen aus, um ihn zu untersuchen.</translation>
    </message>
    <message>
        <source>Recall failed (%1): %2</source>
        <translation>Abruf fehlgeschlagen (%1): %2</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>Start the application with EMBEDDING_PROVIDER=local (offline) or an OpenAI-compatible provider.</source>
        <translation>Starten Sie die Anwendung mit EMBEDDING_PROVIDER=local (offline) oder einem OpenAI-kompatiblen Anbieter.</translation>
    </message>
    <message>
        <source>Seeds (%1)</source>
        <translation>Startknoten (%1)</translation>
    </message>
    <message>
        <source>Ranked (%1)</source>
        <translation>Rangliste (%1)</translation>
    </message>
    <message>
        <source>%1 chars ≈ %2 tokens</source>
        <translation>%1 Zeichen ≈ %2 Tokens</translation>
    </message>
    <message>
        <source>%1-char budget</source>
        <translation>%1-Zeichen-Budget</translation>
    </message>
    <message>
        <source>%1-token budget</source>
        <translation>%1-Token-Budget</translation>
    </message>
    <message>
        <source>Dropped by section — %1</source>
        <translation>Verworfen je Abschnitt — %1</translation>
    </message>
    <message>
        <source>Within the %1 (%2): nothing dropped.</source>
        <translation>Innerhalb des %1 (%2): nichts verworfen.</translation>
    </message>
    <message>
        <source>%1 seeds · %2 ranked · profile %3 (%4) · embeddings: %5 · %6 / %7 · %8 ms</source>
        <translation>%1 Startknoten · %2 in Rangliste · Profil %3 (%4) · Embeddings: %5 · %6 / %7 · %8 ms</translation>
    </message>
    <message>
        <source>Knobs used: limit %1, hops %2, max_nodes %3, max_edges %4, ranked_limit %5, min_edge_weight %6, min_edge_confidence %7</source>
        <translation>Verwendete Parameter: limit %1, hops %2, max_nodes %3, max_edges %4, ranked_limit %5, min_edge_weight %6, min_edge_confidence %7</translation>
    </message>
    <message>
        <source>No seeds: nothing visible in this scope is similar enough to the query (only nodes with a ready embedding in the hot and warm tiers are searched).</source>
        <translation>Keine Startknoten: Nichts Sichtbares in diesem Bereich ist der Anfrage ähnlich genug (durchsucht werden nur Knoten mit fertigem Embedding in den Stufen hot und warm).</translation>
    </message>
    <message>
        <source>1 item</source>
        <translation>1 Eintrag</translation>
    </message>
    <message>
        <source>%1 items</source>
        <translation>%1 Einträge</translation>
    </message>
    <message>
        <source>1 citation</source>
        <translation>1 Zitat</translation>
    </message>
    <message>
        <source>%1 citations</source>
        <translation>%1 Zitate</translation>
    </message>
    <message>
        <source>1 line dropped</source>
        <translation>1 Zeile verworfen</translation>
    </message>
    <message>
        <source>%1 lines dropped</source>
        <translation>%1 Zeilen verworfen</translation>
    </message>
    <message>
        <source>Compacted to a %1 (%2): %3 → %4 chars, %5.</source>
        <translation>Verdichtet auf ein %1 (%2): %3 → %4 Zeichen, %5.</translation>
    </message>
    <message>
        <source>%1 of %2 nodes</source>
        <translation>%1 von %2 Knoten</translation>
    </message>
    <message>
        <source>%1 nodes</source>
        <translation>%1 Knoten</translation>
    </message>
    <message>
        <source>%1 of %2 edges</source>
        <translation>%1 von %2 Kanten</translation>
    </message>
    <message>
        <source>%1 edges</source>
        <translation>%1 Kanten</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>The neighbourhood of the seeds had %1 nodes and %2 edges; the subgraph keeps at most max_nodes and max_edges of them.</source>
        <translation>Die Nachbarschaft der Startknoten hatte %1 Knoten und %2 Kanten; der Teilgraph behält höchstens max_nodes und max_edges davon.</translation>
    </message>
    <message>
        <source>&amp;Assemble</source>
        <translation>Zusammen&amp;stellen</translation>
    </message>
    <message>
        <source>Run context/assemble with these settings: recall, rules and the layered context an agent would get</source>
        <translation>context/assemble mit diesen Einstellungen ausführen: Abruf, Regeln und der geschichtete Kontext, den ein Agent erhalten würde</translation>
    </message>
    <message>
        <source>Layered</source>
        <translation>Geschichtet</translation>
    </message>
    <message>
        <source>Running context/assemble…</source>
        <translation>context/assemble läuft…</translation>
    </message>
    <message>
        <source>Fills the knobs with a recall profile&apos;s defaults (spec §4.3.1). Server default sends no knobs, so the server&apos;s profile policy applies; a named profile is sent as its seven knob values.</source>
        <translation>Füllt die Parameter mit den Standardwerten eines Abrufprofils (Spezifikation §4.3.1). Serverstandard sendet keine Parameter, daher gilt die Profilrichtlinie des Servers; ein benanntes Profil wird als seine sieben Parameterwerte gesendet.</translation>
    </message>
    <message>
        <source>Seeds to find by vector similarity (1–200)</source>
        <translation>Per Vektorähnlichkeit zu findende Startknoten (1–200)</translation>
    </message>
    <message>
        <source>Nodes in the returned subgraph (1–200)</source>
        <translation>Knoten im zurückgegebenen Teilgraphen (1–200)</translation>
    </message>
    <message>
        <source>Edges in the returned subgraph (0–100)</source>
        <translation>Kanten im zurückgegebenen Teilgraphen (0–100)</translation>
    </message>
    <message>
        <source>Entries in the ranked list (1–500)</source>
        <translation>Einträge in der Rangliste (1–500)</translation>
    </message>
    <message>
        <source>Edges below this weight are not followed (0–1)</source>
        <translation>Kanten unterhalb dieses Gewichts werden nicht verfolgt (0–1)</translation>
    </message>
    <message>
        <source>Edges below this confidence are not followed (0–1)</source>
        <translation>Kanten unterhalb dieser Konfidenz werden nicht verfolgt (0–1)</translation>
    </message>
    <message>
        <source>Reload the scope list (%1)</source>
        <translation>Bereichsliste neu laden (%1)</translation>
    </message>
</context>
<context>
    <name>MemoryGraph::Ui::ReplayPage</name>
    <message>
        <source>Select a run to replay it.

Runs are recorded by the replay/run/start, step/before, step/after and run/end calls.</source>
        <translation>Wählen Sie einen Lauf aus, um ihn wiederzugeben.

Läufe werden durch die Aufrufe replay/run/start, step/before, step/after und run/end aufgezeichnet.</translation>
    </message>
    <message>
        <source>No scope selected.</source>
        <translation>Kein Bereich ausgewählt.</translation>
    </message>
    <message>
        <source>Select a run to replay it.</source>
        <translation>Wählen Sie einen Lauf aus, um ihn wiederzugeben.</translation>
    </message>
    <message>
        <source>Reload scopes, runs and the shown run (%1)</source>
        <translation>Bereiche, Läufe und den angezeigten Lauf neu laden (%1)</translation>
    </message>
    <message>
        <source>run id, goal or status</source>
        <translation>Lauf-ID, Ziel oder Status</translation>
    </message>
    <message>
        <source>&amp;Filter:</source>
        <translation>&amp;Filter:</translation>
    </message>
    <message>
        <source>Runs (newest first)</source>
        <translation>Läufe (neueste zuerst)</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Lauf</translation>
    </message>
    <message>
        <source>Open node</source>
        <translation>Knoten öffnen</translation>
    </message>
    <message>
        <source>Show the selected timeline node (else the current step) in the graph</source>
        <translation>Den ausgewählten Knoten der Zeitleiste (sonst den aktuellen Schritt) im Graphen zeigen</translation>
    </message>
    <message>
        <source>Every replay node of the run, oldest first (double-click to open)</source>
        <translation>Alle Replay-Knoten des Laufs, älteste zuerst (Doppelklick zum Öffnen)</translation>
    </message>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>Tool</source>
        <translation>Tool</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Safety</source>
        <translation>Sicherheit</translation>
    </message>
    <message>
        <source>Timeline</source>
        <translation>Zeitleiste</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>Schritte</translation>
    </message>
    <message>
        <source>Current step</source>
        <translation>Aktueller Schritt</translation>
    </message>
    <message>
        <source>Artifacts</source>
        <translation>Artefakte</translation>
    </message>
    <message>
        <source>Decisions</source>
        <translation>Entscheidungen</translation>
    </message>
    <message>
        <source>First step</source>
        <translation>Erster Schritt</translation>
    </message>
    <message>
        <source>Previous step</source>
        <translation>Vorheriger Schritt</translation>
    </message>
    <message>
        <source>Next step</source>
        <translation>Nächster Schritt</translation>
    </message>
    <message>
        <source>Last step</source>
        <translation>Letzter Schritt</translation>
    </message>
    <message>
        <source>Loading runs failed: %1</source>
        <translation>Laden der Läufe fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>The selected run is no longer listed.</source>
        <translation>Der ausgewählte Lauf wird nicht mehr aufgeführt.</translation>
    </message>
    <message>
        <source>Loading the run failed: %1</source>
        <translation>Laden des Laufs fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%2 — started %3, ended %4&lt;br&gt;&lt;small&gt;%5&lt;/small&gt;</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%2 — gestartet %3, beendet %4&lt;br&gt;&lt;small&gt;%5&lt;/small&gt;</translation>
    </message>
    <message>
        <source>No decisions to show.</source>
        <translation>Keine Entscheidungen anzuzeigen.</translation>
    </message>
    <message>
        <source>%1 node %2
%3
commit %4</source>
        <translation>%1-Knoten %2
%3
Commit %4</translation>
    </message>
    <message>
        <source>Artifacts (%1)</source>
        <translation>Artefakte (%1)</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>(none selected)</source>
        <translation>(keins ausgewählt)</translation>
    </message>
    <message>
        <source>Decision %1 among %2</source>
        <translation>Entscheidung %1 unter %2</translation>
    </message>
    <message>
        <source>Decisions (%1)</source>
        <translation>Entscheidungen (%1)</translation>
    </message>
    <message>
        <source>No tool decision was recorded with this run_id.</source>
        <translation>Mit dieser run_id wurde keine Tool-Entscheidung erfasst.</translation>
    </message>
    <message>
        <source>Loading feedback…</source>
        <translation>Feedback wird geladen…</translation>
    </message>
    <message>
        <source>Step %1 of %2</source>
        <translation>Schritt %1 von %2</translation>
    </message>
    <message>
        <source>No run selected.</source>
        <translation>Kein Lauf ausgewählt.</translation>
    </message>
    <message>
        <source>This run has no steps yet.</source>
        <translation>Dieser Lauf hat noch keine Schritte.</translation>
    </message>
    <message>
        <source>No step</source>
        <translation>Kein Schritt</translation>
    </message>
    <message>
        <source>No scope selected</source>
        <translation>Kein Bereich ausgewählt</translation>
    </message>
    <message>
        <source>No replay runs in this scope</source>
        <translation>Keine Replay-Läufe in diesem Bereich</translation>
    </message>
    <message numerus="yes">
        <source>%1 of %n run(s)</source>
        <translation>
            <numerusform>%1 von %n Lauf</numerusform>
            <numerusform>%1 von %n Läufen</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n run(s)</source>
        <translation>
            <numerusform>%n Lauf</numerusform>
            <numerusform>%n Läufe</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Compile playbook from this run</source>
        <translation>Playbook aus diesem Lauf &amp;kompilieren</translation>
    </message>
    <message>
        <source>Playbooks</source>
        <translation>Playbooks</translation>
    </message>
    <message>
        <source>Compile this run into a versioned replay playbook (Playbooks tab)</source>
        <translation>Diesen Lauf zu einem versionierten Replay-Playbook kompilieren (Reiter Playbooks)</translation>
    </message>
    <message>
        <source>Only a run that ended with success can be compiled into a playbook</source>
        <translation>Nur ein erfolgreich beendeter Lauf kann zu einem Playbook kompiliert werden</translation>
    </message>
</context>
<context>
    <name>MemoryGraph::Ui::ReplayRunListModel</name>
    <message>
        <source>Run</source>
        <translation>Lauf</translation>
    </message>
    <message>
        <source>Goal</source>
        <translation>Ziel</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>Gestartet</translation>
    </message>
    <message>
        <source>Ended</source>
        <translation>Beendet</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>Schritte</translation>
    </message>
</context>
<context>
    <name>MemoryGraph::Ui::ReplayStepDetail</name>
    <message>
        <source>Step %1 of %2 — index %3, tool %4</source>
        <translation>Schritt %1 von %2 — Index %3, Tool %4</translation>
    </message>
    <message>
        <source>Step id: %1</source>
        <translation>Schritt-ID: %1</translation>
    </message>
    <message>
        <source>Safety level: %1</source>
        <translation>Sicherheitsstufe: %1</translation>
    </message>
    <message>
        <source>Decision: %1</source>
        <translation>Entscheidung: %1</translation>
    </message>
    <message>
        <source>Tool input:</source>
        <translation>Tool-Eingabe:</translation>
    </message>
    <message>
        <source>Preconditions:</source>
        <translation>Vorbedingungen:</translation>
    </message>
    <message>
        <source>Result: %1</source>
        <translation>Ergebnis: %1</translation>
    </message>
    <message>
        <source>Recorded: %1</source>
        <translation>Erfasst: %1</translation>
    </message>
    <message>
        <source>Repair applied: %1</source>
        <translation>Reparatur angewendet: %1</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>ja</translation>
    </message>
    <message>
        <source>no</source>
        <translation>nein</translation>
    </message>
    <message>
        <source>Repair note: %1</source>
        <translation>Reparaturhinweis: %1</translation>
    </message>
    <message>
        <source>Error: %1</source>
        <translation>Fehler: %1</translation>
    </message>
    <message>
        <source>Postconditions:</source>
        <translation>Nachbedingungen:</translation>
    </message>
    <message>
        <source>Artifacts:</source>
        <translation>Artefakte:</translation>
    </message>
    <message>
        <source>No outcome recorded yet.</source>
        <translation>Noch kein Ergebnis erfasst.</translation>
    </message>
</context>
<context>
    <name>MemoryGraph::Ui::RequestLogModel</name>
    <message>
        <source>Error: %1</source>
        <translation>Fehler: %1</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <source>Method</source>
        <translation>Methode</translation>
    </message>
    <message>
        <source>Path</source>
        <translation>Pfad</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Latency (ms)</source>
        <translation>Latenz (ms)</translation>
    </message>
    <message>
        <source>Tenant</source>
        <translation>Mandant</translation>
    </message>
    <message>
        <source>Request id</source>
        <translation>Anfrage-ID</translation>
    </message>
</context>
<context>
    <name>MemoryGraph::Ui::RuleDisplay</name>
    <message>
        <source>deny_list — on a matched rule&apos;s deny list</source>
        <translation>deny_list — auf der Sperrliste einer passenden Regel</translation>
    </message>
    <message>
        <source>not_in_allow_list — missing from the effective allowlist</source>
        <translation>not_in_allow_list — fehlt in der wirksamen Zulassungsliste</translation>
    </message>
    <message>
        <source>control_profile — blocked by the run&apos;s control profile</source>
        <translation>control_profile — durch das Kontrollprofil des Laufs blockiert</translation>
    </message>
    <message>
        <source>allowlist_filtered_all — the allowlist removed every candidate, so it was ignored (strict=false)</source>
        <translation>allowlist_filtered_all — die Zulassungsliste hat alle Kandidaten entfernt und wurde daher ignoriert (strict=false)</translation>
    </message>
    <message>
        <source>deny_filtered_all — the deny lists removed every candidate; nothing was selected (strict=false)</source>
        <translation>deny_filtered_all — die Sperrlisten haben alle Kandidaten entfernt; nichts wurde ausgewählt (strict=false)</translation>
    </message>
</context>
<context>
    <name>MemoryGraph::Ui::RuleEditor</name>
    <message>
        <source>line %1, column %2: %3</source>
        <translation>Zeile %1, Spalte %2: %3</translation>
    </message>
    <message>
        <source>&amp;If (condition)</source>
        <translation>&amp;Wenn (Bedingung)</translation>
    </message>
    <message>
        <source>A condition on the context, e.g. {&quot;intent&quot;: &quot;deploy&quot;, &quot;agent.id&quot;: {&quot;$in&quot;: [&quot;a1&quot;]}}. Empty or {} matches every context.</source>
        <translation>Eine Bedingung an den Kontext, z. B. {&quot;intent&quot;: &quot;deploy&quot;, &quot;agent.id&quot;: {&quot;$in&quot;: [&quot;a1&quot;]}}. Leer oder {} passt auf jeden Kontext.</translation>
    </message>
    <message>
        <source>Th&amp;en (policy patch)</source>
        <translation>&amp;Dann (Richtlinien-Patch)</translation>
    </message>
    <message>
        <source>The PolicyPatch: {&quot;tool&quot;: {&quot;allow&quot;, &quot;deny&quot;, &quot;prefer&quot;}, &quot;output&quot;: {&quot;format&quot;, &quot;strict&quot;}, &quot;extensions&quot;: {...}}.</source>
        <translation>Der PolicyPatch: {&quot;tool&quot;: {&quot;allow&quot;, &quot;deny&quot;, &quot;prefer&quot;}, &quot;output&quot;: {&quot;format&quot;, &quot;strict&quot;}, &quot;extensions&quot;: {...}}.</translation>
    </message>
    <message>
        <source>Exce&amp;ptions</source>
        <translation>A&amp;usnahmen</translation>
    </message>
    <message>
        <source>An array of conditions; the rule does not apply when any of them matches.</source>
        <translation>Ein Array von Bedingungen; die Regel gilt nicht, wenn eine davon passt.</translation>
    </message>
    <message>
        <source>Re&amp;vert</source>
        <translation>&amp;Verwerfen</translation>
    </message>
    <message>
        <source>Discard the changes and show the stored rule again</source>
        <translation>Die Änderungen verwerfen und wieder die gespeicherte Regel anzeigen</translation>
    </message>
    <message>
        <source>Save rule</source>
        <translation>Regel speichern</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>Speichern</translation>
    </message>
    <message>
        <source>Select a rule to edit it, or create a new one.</source>
        <translation>Wählen Sie eine Regel zum Bearbeiten aus oder legen Sie eine neue an.</translation>
    </message>
    <message>
        <source>Short name shown in the rules table</source>
        <translation>Kurzname, der in der Regeltabelle angezeigt wird</translation>
    </message>
    <message>
        <source>What the rule does and why (text_summary)</source>
        <translation>Was die Regel tut und warum (text_summary)</translation>
    </message>
    <message>
        <source>global (every agent)</source>
        <translation>global (jeder Agent)</translation>
    </message>
    <message>
        <source>team</source>
        <translation>Team</translation>
    </message>
    <message>
        <source>agent</source>
        <translation>Agent</translation>
    </message>
    <message>
        <source>rule_scope: a team or agent rule only applies when the context names that team or agent</source>
        <translation>rule_scope: Eine Team- oder Agentenregel gilt nur, wenn der Kontext dieses Team bzw. diesen Agenten nennt</translation>
    </message>
    <message>
        <source>rule_meta.priority (-100..100): the strongest part of the rank (priority × 1000)</source>
        <translation>rule_meta.priority (-100..100): der stärkste Anteil am Rang (Priorität × 1000)</translation>
    </message>
    <message>
        <source>rule_meta.weight (0..2): scales the feedback evidence in the rank</source>
        <translation>rule_meta.weight (0..2): skaliert die Feedback-Evidenz im Rang</translation>
    </message>
    <message>
        <source>shared</source>
        <translation>geteilt</translation>
    </message>
    <message>
        <source>private</source>
        <translation>privat</translation>
    </message>
    <message>
        <source>memory_lane: a private rule is only visible to its owner agent or team</source>
        <translation>memory_lane: Eine private Regel ist nur für ihren Eigentümer-Agenten oder ihr Eigentümer-Team sichtbar</translation>
    </message>
    <message>
        <source>owner_agent_id</source>
        <translation>owner_agent_id</translation>
    </message>
    <message>
        <source>owner_team_id</source>
        <translation>owner_team_id</translation>
    </message>
    <message>
        <source>Tar&amp;get:</source>
        <translation>&amp;Ziel:</translation>
    </message>
    <message>
        <source>&amp;Title:</source>
        <translation>&amp;Titel:</translation>
    </message>
    <message>
        <source>S&amp;ummary:</source>
        <translation>Zu&amp;sammenfassung:</translation>
    </message>
    <message>
        <source>Sc&amp;ope:</source>
        <translation>&amp;Geltungsbereich:</translation>
    </message>
    <message>
        <source>P&amp;riority:</source>
        <translation>P&amp;riorität:</translation>
    </message>
    <message>
        <source>&amp;Weight:</source>
        <translation>Gewi&amp;cht:</translation>
    </message>
    <message>
        <source>&amp;Lane:</source>
        <translation>S&amp;pur:</translation>
    </message>
    <message>
        <source>Owner &amp;agent:</source>
        <translation>Eigentümer-&amp;Agent:</translation>
    </message>
    <message>
        <source>Owner tea&amp;m:</source>
        <translation>Eigentümer-Tea&amp;m:</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>if: must be a JSON object</source>
        <translation>if: muss ein JSON-Objekt sein</translation>
    </message>
    <message>
        <source>then: must be a JSON object</source>
        <translation>then: muss ein JSON-Objekt sein</translation>
    </message>
    <message>
        <source>exceptions: must be a JSON array of conditions</source>
        <translation>exceptions: muss ein JSON-Array von Bedingungen sein</translation>
    </message>
    <message>
        <source>%1: must be a JSON object</source>
        <translation>%1: muss ein JSON-Objekt sein</translation>
    </message>
    <message>
        <source>Give the rule a title or a summary.</source>
        <translation>Geben Sie der Regel einen Titel oder eine Zusammenfassung.</translation>
    </message>
    <message>
        <source>slots.target_team_id: a team rule needs the id of its target team.</source>
        <translation>slots.target_team_id: Eine Teamregel braucht die ID ihres Zielteams.</translation>
    </message>
    <message>
        <source>slots.target_agent_id: an agent rule needs the id of its target agent.</source>
        <translation>slots.target_agent_id: Eine Agentenregel braucht die ID ihres Zielagenten.</translation>
    </message>
    <message>
        <source>✓ valid</source>
        <translation>✓ gültig</translation>
    </message>
    <message>
        <source>Fix the errors shown under the fields first</source>
        <translation>Beheben Sie zuerst die unter den Feldern angezeigten Fehler</translation>
    </message>
    <message>
        <source>Nothing to save</source>
        <translation>Nichts zu speichern</translation>
    </message>
    <message>
        <source>Write the rule as a new commit (%1)</source>
        <translation>Die Regel als neuen Commit schreiben (%1)</translation>
    </message>
    <message>
        <source>Move to s&amp;hadow</source>
        <translation>Auf s&amp;hadow setzen</translation>
    </message>
    <message>
        <source>Acti&amp;vate</source>
        <translation>Akt&amp;ivieren</translation>
    </message>
    <message>
        <source>Save the new rule first; it starts in SHADOW</source>
        <translation>Speichern Sie zuerst die neue Regel; sie beginnt in SHADOW</translation>
    </message>
    <message>
        <source>Save or revert the changes first</source>
        <translation>Speichern oder verwerfen Sie zuerst die Änderungen</translation>
    </message>
    <message>
        <source>Enforce the rule&apos;s policy when it matches</source>
        <translation>Die Richtlinie der Regel durchsetzen, wenn sie passt</translation>
    </message>
    <message>
        <source>target_agent_id</source>
        <translation>target_agent_id</translation>
    </message>
    <message>
        <source>target_team_id</source>
        <translation>target_team_id</translation>
    </message>
    <message>
        <source>not used</source>
        <translation>nicht verwendet</translation>
    </message>
    <message>
        <source>New rule</source>
        <translation>Neue Regel</translation>
    </message>
    <message>
        <source>client_id %1 · not saved yet</source>
        <translation>client_id %1 · noch nicht gespeichert</translation>
    </message>
    <message>
        <source>NEW</source>
        <translation>NEU</translation>
    </message>
    <message>
        <source>id %1</source>
        <translation>ID %1</translation>
    </message>
    <message>
        <source>id %1 · client_id %2</source>
        <translation>ID %1 · client_id %2</translation>
    </message>
    <message>
        <source>ACTIVE</source>
        <translation>ACTIVE</translation>
    </message>
    <message>
        <source>SHADOW</source>
        <translation>SHADOW</translation>
    </message>
    <message>
        <source>The state to move the rule to; only SHADOW and ACTIVE rules are evaluated</source>
        <translation>Der Zustand, in den die Regel wechseln soll; nur SHADOW- und ACTIVE-Regeln werden ausgewertet</translation>
    </message>
    <message>
        <source>DRAFT</source>
        <translation>DRAFT</translation>
    </message>
    <message>
        <source>DISABLED</source>
        <translation>DISABLED</translation>
    </message>
    <message>
        <source>Lifec&amp;ycle state:</source>
        <translation>Lebens&amp;zyklus-Zustand:</translation>
    </message>
    <message>
        <source>&amp;Back to draft</source>
        <translation>&amp;Zurück zum Entwurf</translation>
    </message>
    <message>
        <source>Disa&amp;ble</source>
        <translation>&amp;Deaktivieren</translation>
    </message>
    <message>
        <source>The rule is already in this state</source>
        <translation>Die Regel ist bereits in diesem Zustand</translation>
    </message>
    <message>
        <source>Evaluate and report the rule without enforcing its policy</source>
        <translation>Die Regel auswerten und melden, ohne ihre Richtlinie durchzusetzen</translation>
    </message>
    <message>
        <source>Take the rule back to a draft; drafts are never evaluated</source>
        <translation>Die Regel zurück in einen Entwurf versetzen; Entwürfe werden nie ausgewertet</translation>
    </message>
    <message>
        <source>Switch the rule off; disabled rules are never evaluated</source>
        <translation>Die Regel abschalten; deaktivierte Regeln werden nie ausgewertet</translation>
    </message>
</context>
<context>
    <name>MemoryGraph::Ui::RuleTableModel</name>
    <message>
        <source>never</source>
        <translation>nie</translation>
    </message>
    <message>
        <source>%1

id: %2
client_id: %3</source>
        <translation>%1

ID: %2
client_id: %3</translation>
    </message>
    <message>
        <source>Active: the rule&apos;s policy is enforced when it matches</source>
        <translation>Active: Die Richtlinie der Regel wird durchgesetzt, wenn sie passt</translation>
    </message>
    <message>
        <source>Shadow: the rule is evaluated and reported, but not enforced</source>
        <translation>Shadow: Die Regel wird ausgewertet und gemeldet, aber nicht durchgesetzt</translation>
    </message>
    <message>
        <source>Applies only to agent %1</source>
        <translation>Gilt nur für Agent %1</translation>
    </message>
    <message>
        <source>Applies only to team %1</source>
        <translation>Gilt nur für Team %1</translation>
    </message>
    <message>
        <source>Applies to every agent</source>
        <translation>Gilt für jeden Agenten</translation>
    </message>
    <message>
        <source>Rank score = priority × 1000 + evidence × 100 × weight + specificity
priority %1, weight %2, evidence %3</source>
        <translation>Rangwert = Priorität × 1000 + Evidenz × 100 × Gewicht + Spezifität
Priorität %1, Gewicht %2, Evidenz %3</translation>
    </message>
    <message>
        <source>Last matched by a recorded tool selection: %1</source>
        <translation>Zuletzt von einer erfassten Tool-Auswahl getroffen: %1</translation>
    </message>
    <message>
        <source>No recorded tool selection has matched this rule yet</source>
        <translation>Noch keine erfasste Tool-Auswahl hat diese Regel getroffen</translation>
    </message>
    <message>
        <source>Feedback attributed to this rule: %1 positive, %2 negative</source>
        <translation>Dieser Regel zugeordnetes Feedback: %1 positiv, %2 negativ</translation>
    </message>
    <message>
        <source>Rule</source>
        <translation>Regel</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <source>Scope</source>
        <translation>Geltung</translation>
    </message>
    <message>
        <source>Target</source>
        <translation>Ziel</translation>
    </message>
    <message>
        <source>Priority</source>
        <translation>Priorität</translation>
    </message>
    <message>
        <source>Weight</source>
        <translation>Gewicht</translation>
    </message>
    <message>
        <source>Positive</source>
        <translation>Positiv</translation>
    </message>
    <message>
        <source>Negative</source>
        <translation>Negativ</translation>
    </message>
    <message>
        <source>Last matched</source>
        <translation>Zuletzt getroffen</translation>
    </message>
    <message>
        <source>Draft: the rule is being written and is never evaluated</source>
        <translation>Entwurf: Die Regel wird noch geschrieben und nie ausgewertet</translation>
    </message>
    <message>
        <source>Disabled: the rule is switched off and is never evaluated</source>
        <translation>Deaktiviert: Die Regel ist abgeschaltet und wird nie ausgewertet</translation>
    </message>
</context>
<context>
    <name>MemoryGraph::Ui::RuleTryPanel</name>
    <message>
        <source>Run</source>
        <translation>Ausführen</translation>
    </message>
    <message>
        <source>The context object an agent would send; empty means {}</source>
        <translation>Das Kontextobjekt, das ein Agent senden würde; leer bedeutet {}</translation>
    </message>
    <message>
        <source>Conte&amp;xt:</source>
        <translation>Konte&amp;xt:</translation>
    </message>
    <message>
        <source>search, shell, browser</source>
        <translation>search, shell, browser</translation>
    </message>
    <message>
        <source>Candidate tools, separated by commas, in the agent&apos;s order</source>
        <translation>Kandidaten-Tools, durch Kommas getrennt, in der Reihenfolge des Agenten</translation>
    </message>
    <message>
        <source>Candi&amp;dates:</source>
        <translation>Kandidat&amp;en:</translation>
    </message>
    <message>
        <source>Stri&amp;ct</source>
        <translation>Stri&amp;kt</translation>
    </message>
    <message>
        <source>strict=true: an empty selection is the no_tools_allowed error; strict=false falls back instead</source>
        <translation>strict=true: Eine leere Auswahl ergibt den Fehler no_tools_allowed; strict=false greift stattdessen auf den Fallback zurück</translation>
    </message>
    <message>
        <source>Evaluate the rules and preview the tool selection (Ctrl+Enter). Nothing is recorded.</source>
        <translation>Die Regeln auswerten und eine Vorschau der Tool-Auswahl anzeigen (Strg+Eingabe). Nichts wird erfasst.</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <source>Rule</source>
        <translation>Regel</translation>
    </message>
    <message>
        <source>Score</source>
        <translation>Wertung</translation>
    </message>
    <message>
        <source>Priority</source>
        <translation>Priorität</translation>
    </message>
    <message>
        <source>Weight</source>
        <translation>Gewicht</translation>
    </message>
    <message>
        <source>Evidence</source>
        <translation>Evidenz</translation>
    </message>
    <message>
        <source>Specificity</source>
        <translation>Spezifität</translation>
    </message>
    <message>
        <source>Condition paths</source>
        <translation>Bedingungspfade</translation>
    </message>
    <message>
        <source>Double-click a rule to open it in the editor</source>
        <translation>Doppelklicken Sie auf eine Regel, um sie im Editor zu öffnen</translation>
    </message>
    <message>
        <source>Conflict</source>
        <translation>Konflikt</translation>
    </message>
    <message>
        <source>Winner</source>
        <translation>Gewinner</translation>
    </message>
    <message>
        <source>Losers</source>
        <translation>Verlierer</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Grund</translation>
    </message>
    <message>
        <source>Selection</source>
        <translation>Auswahl</translation>
    </message>
    <message>
        <source>Matched rules</source>
        <translation>Passende Regeln</translation>
    </message>
    <message>
        <source>Policy</source>
        <translation>Richtlinie</translation>
    </message>
    <message>
        <source>Conflicts</source>
        <translation>Konflikte</translation>
    </message>
    <message>
        <source>Selected:</source>
        <translation>Ausgewählt:</translation>
    </message>
    <message>
        <source>Allowed:</source>
        <translation>Erlaubt:</translation>
    </message>
    <message>
        <source>Denied:</source>
        <translation>Abgelehnt:</translation>
    </message>
    <message>
        <source>Preferred:</source>
        <translation>Bevorzugt:</translation>
    </message>
    <message>
        <source>Ordered:</source>
        <translation>Reihenfolge:</translation>
    </message>
    <message>
        <source>Fallback:</source>
        <translation>Fallback:</translation>
    </message>
    <message>
        <source>Shadow rules:</source>
        <translation>Shadow-Regeln:</translation>
    </message>
    <message>
        <source>What the shadow rules alone would select (strict=false); shadow rules are never enforced</source>
        <translation>Was die Shadow-Regeln allein auswählen würden (strict=false); Shadow-Regeln werden nie durchgesetzt</translation>
    </message>
    <message>
        <source>No scope selected.</source>
        <translation>Kein Bereich ausgewählt.</translation>
    </message>
    <message>
        <source>Enter a context and candidate tools, then Run. Nothing is recorded.</source>
        <translation>Geben Sie einen Kontext und Kandidaten-Tools ein und klicken Sie dann auf Ausführen. Nichts wird erfasst.</translation>
    </message>
    <message>
        <source>context: must be a JSON object</source>
        <translation>context: muss ein JSON-Objekt sein</translation>
    </message>
    <message>
        <source>context: %1</source>
        <translation>context: %1</translation>
    </message>
    <message>
        <source>Evaluating…</source>
        <translation>Wird ausgewertet…</translation>
    </message>
    <message>
        <source>Evaluation failed: %1 (%2)</source>
        <translation>Auswertung fehlgeschlagen: %1 (%2)</translation>
    </message>
    <message numerus="yes">
        <source>%n rule(s) considered</source>
        <translation>
            <numerusform>%n Regel berücksichtigt</numerusform>
            <numerusform>%n Regeln berücksichtigt</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 active, %2 shadow matched</source>
        <translation>%1 active, %2 shadow getroffen</translation>
    </message>
    <message numerus="yes">
        <source>%n skipped for an invalid then</source>
        <translation>
            <numerusform>%n wegen ungültigem then übersprungen</numerusform>
            <numerusform>%n wegen ungültigem then übersprungen</numerusform>
        </translation>
    </message>
    <message>
        <source>preview only, nothing was recorded</source>
        <translation>nur Vorschau, nichts wurde erfasst</translation>
    </message>
    <message>
        <source>ACTIVE</source>
        <translation>ACTIVE</translation>
    </message>
    <message>
        <source>SHADOW</source>
        <translation>SHADOW</translation>
    </message>
    <message>
        <source>%1
id: %2</source>
        <translation>%1
ID: %2</translation>
    </message>
    <message>
        <source>(matches every context)</source>
        <translation>(passt auf jeden Kontext)</translation>
    </message>
    <message>
        <source>Matched rules (%1)</source>
        <translation>Passende Regeln (%1)</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>none (all apply)</source>
        <translation>keiner (alle gelten)</translation>
    </message>
    <message>
        <source>Conflicts (%1)</source>
        <translation>Konflikte (%1)</translation>
    </message>
    <message>
        <source>Enter candidate tools to preview a selection.</source>
        <translation>Geben Sie Kandidaten-Tools ein, um eine Auswahl als Vorschau zu sehen.</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>none of %1</source>
        <translation>keines von %1</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>(keine)</translation>
    </message>
    <message>
        <source>(%1)</source>
        <translation>(%1)</translation>
    </message>
    <message>
        <source>would also select %1</source>
        <translation>würde ebenfalls %1 auswählen</translation>
    </message>
    <message>
        <source>would select %1 instead (not enforced)</source>
        <translation>würde stattdessen %1 auswählen (nicht durchgesetzt)</translation>
    </message>
</context>
<context>
    <name>MemoryGraph::Ui::RulesPage</name>
    <message>
        <source>Rule</source>
        <translation>Regel</translation>
    </message>
    <message>
        <source>Try it — preview the rules for a context (nothing is recorded)</source>
        <translation>Ausprobieren — Vorschau der Regeln für einen Kontext (nichts wird erfasst)</translation>
    </message>
    <message>
        <source>Reload scopes and rules (%1)</source>
        <translation>Bereiche und Regeln neu laden (%1)</translation>
    </message>
    <message>
        <source>Filter by title, summary, id or target</source>
        <translation>Nach Titel, Zusammenfassung, ID oder Ziel filtern</translation>
    </message>
    <message>
        <source>&amp;Filter:</source>
        <translation>&amp;Filter:</translation>
    </message>
    <message>
        <source>Find rule</source>
        <translation>Regel suchen</translation>
    </message>
    <message>
        <source>All states</source>
        <translation>Alle Zustände</translation>
    </message>
    <message>
        <source>Show rules in one state only</source>
        <translation>Nur Regeln in einem Zustand anzeigen</translation>
    </message>
    <message>
        <source>All rule scopes</source>
        <translation>Alle Geltungsbereiche</translation>
    </message>
    <message>
        <source>Show global, team or agent rules only</source>
        <translation>Nur globale, Team- oder Agentenregeln anzeigen</translation>
    </message>
    <message>
        <source>&amp;New rule</source>
        <translation>&amp;Neue Regel</translation>
    </message>
    <message>
        <source>Start a new rule in this scope (%1); it is saved in SHADOW</source>
        <translation>Eine neue Regel in diesem Bereich beginnen (%1); sie wird in SHADOW gespeichert</translation>
    </message>
    <message>
        <source>Rules</source>
        <translation>Regeln</translation>
    </message>
    <message>
        <source>Select a scope first.</source>
        <translation>Wählen Sie zuerst einen Bereich aus.</translation>
    </message>
    <message>
        <source>New rule: fill it in and save; it starts in SHADOW.</source>
        <translation>Neue Regel: ausfüllen und speichern; sie beginnt in SHADOW.</translation>
    </message>
    <message>
        <source>Saving…</source>
        <translation>Wird gespeichert…</translation>
    </message>
    <message>
        <source>the write returned no node</source>
        <translation>der Schreibvorgang lieferte keinen Knoten</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>Save failed: %1</source>
        <translation>Speichern fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>“%1” is unchanged.</source>
        <translation>„%1“ ist unverändert.</translation>
    </message>
    <message>
        <source>Saved “%1” (commit %2).</source>
        <translation>„%1“ gespeichert (Commit %2).</translation>
    </message>
    <message>
        <source>Changing the state…</source>
        <translation>Zustand wird geändert…</translation>
    </message>
    <message>
        <source>State change failed: %1</source>
        <translation>Zustandsänderung fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>“%1” is now %2.</source>
        <translation>„%1“ ist jetzt %2.</translation>
    </message>
    <message>
        <source>Loading rules failed: %1</source>
        <translation>Laden der Regeln fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Rule %1 is not in this scope.</source>
        <translation>Regel %1 ist nicht in diesem Bereich.</translation>
    </message>
    <message>
        <source>The rule is no longer in this scope.</source>
        <translation>Die Regel ist nicht mehr in diesem Bereich.</translation>
    </message>
    <message>
        <source>No scope selected.</source>
        <translation>Kein Bereich ausgewählt.</translation>
    </message>
    <message>
        <source>Select a rule to edit it, or create a new one.</source>
        <translation>Wählen Sie eine Regel zum Bearbeiten aus oder legen Sie eine neue an.</translation>
    </message>
    <message>
        <source>Discard changes?</source>
        <translation>Änderungen verwerfen?</translation>
    </message>
    <message>
        <source>The rule has unsaved changes. Discard them?</source>
        <translation>Die Regel hat ungespeicherte Änderungen. Verwerfen?</translation>
    </message>
    <message>
        <source>“%1” has unsaved changes. Discard them?</source>
        <translation>„%1“ hat ungespeicherte Änderungen. Verwerfen?</translation>
    </message>
    <message>
        <source>No scope selected</source>
        <translation>Kein Bereich ausgewählt</translation>
    </message>
    <message>
        <source>No rules in this scope</source>
        <translation>Keine Regeln in diesem Bereich</translation>
    </message>
    <message numerus="yes">
        <source>%n rule(s)</source>
        <translation>
            <numerusform>%n Regel</numerusform>
            <numerusform>%n Regeln</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 of %n rule(s) shown</source>
        <translation>
            <numerusform>%1 von %n Regel angezeigt</numerusform>
            <numerusform>%1 von %n Regeln angezeigt</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>MemoryGraph::Ui::ScopePicker</name>
    <message>
        <source>Loading scopes…</source>
        <translation>Bereiche werden geladen…</translation>
    </message>
    <message>
        <source>The tenant and scope to work in</source>
        <translation>Mandant und Bereich, in denen gearbeitet wird</translation>
    </message>
    <message>
        <source>&amp;Scope:</source>
        <translation>&amp;Bereich:</translation>
    </message>
    <message>
        <source>%1 / %2  (%3 nodes)</source>
        <translation>%1 / %2  (%3 Knoten)</translation>
    </message>
    <message>
        <source>%1 nodes, %2 edges, %3 commits</source>
        <translation>%1 Knoten, %2 Kanten, %3 Commits</translation>
    </message>
    <message>
        <source>No scopes yet</source>
        <translation>Noch keine Bereiche</translation>
    </message>
</context>
<context>
    <name>MemoryGraph::Ui::SeedTableModel</name>
    <message>
        <source>%1Node %2</source>
        <translation>%1Knoten %2</translation>
    </message>
    <message>
        <source>Cosine similarity to the query: %1</source>
        <translation>Kosinus-Ähnlichkeit zur Anfrage: %1</translation>
    </message>
    <message>
        <source>Title</source>
        <translation>Titel</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Typ</translation>
    </message>
    <message>
        <source>Tier</source>
        <translation>Stufe</translation>
    </message>
    <message>
        <source>Similarity</source>
        <translation>Ähnlichkeit</translation>
    </message>
    <message>
        <source>vec</source>
        <translation>Vek</translation>
    </message>
    <message>
        <source>word</source>
        <translation>Wort</translation>
    </message>
    <message>
        <source>date</source>
        <translation>Datum</translation>
    </message>
    <message>
        <source>sense</source>
        <translation>Sinn</translation>
    </message>
    <message>
        <source>vector #%1</source>
        <translation>Vektor Nr. %1</translation>
    </message>
    <message>
        <source>words #%1</source>
        <translation>Wörter Nr. %1</translation>
    </message>
    <message>
        <source>date #%1</source>
        <translation>Datum Nr. %1</translation>
    </message>
    <message>
        <source>word senses #%1</source>
        <translation>Wortbedeutungen Nr. %1</translation>
    </message>
    <message>
        <source>Found by</source>
        <translation>Gefunden über</translation>
    </message>
    <message>
        <source>Found by %1; relevance %2. Seeds follow the channels&apos; rankings fused.</source>
        <translation>Gefunden über %1; Relevanz %2. Die Startknoten folgen den zusammengeführten Ranglisten der Kanäle.</translation>
    </message>
</context>
<context>
    <name>MemoryGraph::Ui::ServerPage</name>
    <message>
        <source>HTTP server</source>
        <translation>HTTP-Server</translation>
    </message>
    <message>
        <source>Address the /v1 API listens on</source>
        <translation>Adresse, auf der die /v1-API lauscht</translation>
    </message>
    <message>
        <source>any free port</source>
        <translation>beliebiger freier Port</translation>
    </message>
    <message>
        <source>Bind address:</source>
        <translation>Bind-Adresse:</translation>
    </message>
    <message>
        <source>Port:</source>
        <translation>Port:</translation>
    </message>
    <message>
        <source>Auth mode:</source>
        <translation>Authentifizierung:</translation>
    </message>
    <message>
        <source>State:</source>
        <translation>Zustand:</translation>
    </message>
    <message>
        <source>Base URL:</source>
        <translation>Basis-URL:</translation>
    </message>
    <message>
        <source>Request log</source>
        <translation>Anfrageprotokoll</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>Leeren</translation>
    </message>
    <message>
        <source>Server stopped</source>
        <translation>Server gestoppt</translation>
    </message>
    <message>
        <source>Server starting…</source>
        <translation>Server startet…</translation>
    </message>
    <message>
        <source>Listening on %1:%2</source>
        <translation>Lauscht auf %1:%2</translation>
    </message>
    <message>
        <source>Server stopping…</source>
        <translation>Server stoppt…</translation>
    </message>
    <message>
        <source>Server failed: %1</source>
        <translation>Serverfehler: %1</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Stoppen</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>Starten</translation>
    </message>
    <message>
        <source>not listening</source>
        <translation>lauscht nicht</translation>
    </message>
    <message>
        <source>Authentication is off, so the server only accepts a loopback address (127.0.0.1, ::1 or localhost).</source>
        <translation>Die Authentifizierung ist aus, daher akzeptiert der Server nur eine Loopback-Adresse (127.0.0.1, ::1 oder localhost).</translation>
    </message>
    <message>
        <source>1 request logged</source>
        <translation>1 Anfrage protokolliert</translation>
    </message>
    <message>
        <source>%1 requests logged</source>
        <translation>%1 Anfragen protokolliert</translation>
    </message>
    <message>
        <source>%1 requests logged, showing the newest %2</source>
        <translation>%1 Anfragen protokolliert, die neuesten %2 werden angezeigt</translation>
    </message>
    <message>
        <source>Model Context Protocol endpoint (Streamable HTTP) for agents</source>
        <translation>Model-Context-Protocol-Endpunkt (Streamable HTTP) für Agenten</translation>
    </message>
    <message>
        <source>Copy client configuration</source>
        <translation>Client-Konfiguration kopieren</translation>
    </message>
    <message>
        <source>MCP endpoint:</source>
        <translation>MCP-Endpunkt:</translation>
    </message>
    <message>
        <source>%1 (stdio, for %2)</source>
        <translation>%1 (stdio, für %2)</translation>
    </message>
    <message>
        <source>%1 (HTTP, for %2)</source>
        <translation>%1 (HTTP, für %2)</translation>
    </message>
</context>
<context>
    <name>MemoryGraph::Ui::SettingsDialog</name>
    <message>
        <source>Preferences</source>
        <translation>Einstellungen</translation>
    </message>
    <message>
        <source>Running in the background</source>
        <translation>Im Hintergrund laufen</translation>
    </message>
    <message>
        <source>&amp;Keep serving in the tray when the window is closed</source>
        <translation>Im Infobereich weiter Anfragen &amp;bedienen, wenn das Fenster geschlossen ist</translation>
    </message>
    <message>
        <source>Agents stay connected while the window is closed. Open the window again or quit from the tray icon; File → Quit (Ctrl+Q) always quits.</source>
        <translation>Agenten bleiben verbunden, während das Fenster geschlossen ist. Öffnen Sie das Fenster wieder oder beenden Sie über das Symbol im Infobereich; Datei → Beenden (Strg+Q) beendet immer.</translation>
    </message>
    <message>
        <source>This desktop has no system tray, so closing the window quits Memory Graph.</source>
        <translation>Dieser Desktop hat keinen Infobereich; das Schließen des Fensters beendet daher Memory Graph.</translation>
    </message>
    <message>
        <source>&amp;Start at login</source>
        <translation>Bei der &amp;Anmeldung starten</translation>
    </message>
    <message>
        <source>Starts Memory Graph in the tray when you log in (%1).</source>
        <translation>Startet Memory Graph im Infobereich, wenn Sie sich anmelden (%1).</translation>
    </message>
    <message>
        <source>Start at login could not be changed: %1</source>
        <translation>Der Start bei der Anmeldung konnte nicht geändert werden: %1</translation>
    </message>
</context>
<context>
    <name>MemoryGraph::Ui::TrayIcon</name>
    <message>
        <source>&amp;Open Memory Graph</source>
        <translation>Memory Graph &amp;öffnen</translation>
    </message>
    <message>
        <source>&amp;Pause serving</source>
        <translation>Bedienen &amp;pausieren</translation>
    </message>
    <message>
        <source>&amp;Quit Memory Graph</source>
        <translation>Memory Graph &amp;beenden</translation>
    </message>
    <message>
        <source>Memory Graph keeps running in the tray.</source>
        <translation>Memory Graph läuft im Infobereich weiter.</translation>
    </message>
    <message>
        <source>Agents can still reach it at %1.</source>
        <translation>Agenten erreichen es weiterhin unter %1.</translation>
    </message>
    <message>
        <source>Memory Graph is still serving</source>
        <translation>Memory Graph bedient weiter Anfragen</translation>
    </message>
    <message>
        <source>Open it from this icon; choose Quit in its menu to stop it.</source>
        <translation>Öffnen Sie es über dieses Symbol; wählen Sie Beenden in seinem Menü, um es zu stoppen.</translation>
    </message>
    <message>
        <source>Serving on %1</source>
        <translation>Bedient Anfragen auf %1</translation>
    </message>
    <message>
        <source>Paused: not serving</source>
        <translation>Pausiert: bedient keine Anfragen</translation>
    </message>
    <message>
        <source>&amp;Resume serving</source>
        <translation>Bedienen &amp;fortsetzen</translation>
    </message>
    <message>
        <source>Memory Graph</source>
        <translation>Memory Graph</translation>
    </message>
    <message>
        <source>1 request served</source>
        <translation>1 Anfrage bedient</translation>
    </message>
    <message>
        <source>%1 requests served</source>
        <translation>%1 Anfragen bedient</translation>
    </message>
</context>
<context>
    <name>MemoryGraph::Ui::WelcomePage</name>
    <message>
        <source>Welcome to Memory Graph</source>
        <translation>Willkommen bei Memory Graph</translation>
    </message>
    <message>
        <source>A long-term memory for the agents on this machine. Point an agent at the address below so it can remember and recall, or start with a few sample memories to look around.</source>
        <translation>Ein Langzeitgedächtnis für die Agenten auf diesem Rechner. Richten Sie einen Agenten auf die Adresse unten, damit er sich erinnern und abrufen kann, oder beginnen Sie mit ein paar Beispiel-Erinnerungen, um sich umzusehen.</translation>
    </message>
    <message>
        <source>&amp;Browse memories</source>
        <translation>Erinnerungen &amp;durchsehen</translation>
    </message>
    <message>
        <source>Open the Memory page: the scope&apos;s nodes, edges and commits</source>
        <translation>Die Seite Gedächtnis öffnen: Knoten, Kanten und Commits des Bereichs</translation>
    </message>
    <message>
        <source>Open the &amp;graph</source>
        <translation>Den &amp;Graphen öffnen</translation>
    </message>
    <message>
        <source>Open the Graph page: the scope&apos;s most salient nodes</source>
        <translation>Die Seite Graph öffnen: die wichtigsten Knoten des Bereichs</translation>
    </message>
    <message>
        <source>Where agents connect</source>
        <translation>Wo Agenten sich verbinden</translation>
    </message>
    <message>
        <source>Copy a&amp;ddress</source>
        <translation>A&amp;dresse kopieren</translation>
    </message>
    <message>
        <source>&amp;Server page</source>
        <translation>&amp;Server-Seite</translation>
    </message>
    <message>
        <source>Bind address, port, start and stop, and the request log</source>
        <translation>Bind-Adresse, Port, Start und Stopp sowie das Anfrageprotokoll</translation>
    </message>
    <message>
        <source>The HTTP API is under /v1 of this address and the MCP endpoint at /mcp. Only programs on this machine can reach it.</source>
        <translation>Die HTTP-API liegt unter /v1 dieser Adresse, der MCP-Endpunkt unter /mcp. Nur Programme auf diesem Rechner erreichen sie.</translation>
    </message>
    <message>
        <source>Connect an agent</source>
        <translation>Einen Agenten verbinden</translation>
    </message>
    <message>
        <source>Any HTTP client (curl)</source>
        <translation>Beliebiger HTTP-Client (curl)</translation>
    </message>
    <message>
        <source>&amp;Agent:</source>
        <translation>&amp;Agent:</translation>
    </message>
    <message>
        <source>MCP over HTTP</source>
        <translation>MCP über HTTP</translation>
    </message>
    <message>
        <source>MCP over stdio (memorygraph mcp)</source>
        <translation>MCP über stdio (memorygraph mcp)</translation>
    </message>
    <message>
        <source>HTTP: the agent talks to this window&apos;s listener. stdio: the agent starts memorygraph mcp, which forwards to it.</source>
        <translation>HTTP: Der Agent spricht mit dem Listener dieses Fensters. stdio: Der Agent startet memorygraph mcp, das an ihn weiterleitet.</translation>
    </message>
    <message>
        <source>&amp;Transport:</source>
        <translation>&amp;Transport:</translation>
    </message>
    <message>
        <source>Co&amp;py</source>
        <translation>&amp;Kopieren</translation>
    </message>
    <message>
        <source>Copy the snippet to the clipboard</source>
        <translation>Das Beispiel in die Zwischenablage kopieren</translation>
    </message>
    <message>
        <source>Start with some memories</source>
        <translation>Mit ein paar Erinnerungen beginnen</translation>
    </message>
    <message>
        <source>&amp;Load sample memories</source>
        <translation>Beispiel-Erinnerungen &amp;laden</translation>
    </message>
    <message>
        <source>A support team&apos;s notes on one customer: people, incidents, a topic and two rules, written into the default scope the way an agent writes them.</source>
        <translation>Die Notizen eines Support-Teams zu einem Kunden: Personen, Vorfälle, ein Thema und zwei Regeln, in den Standardbereich geschrieben, wie ein Agent sie schreibt.</translation>
    </message>
    <message>
        <source>&amp;Import…</source>
        <translation>&amp;Importieren…</translation>
    </message>
    <message>
        <source>Bring in memories exported from another Memory Graph.</source>
        <translation>Erinnerungen übernehmen, die aus einem anderen Memory Graph exportiert wurden.</translation>
    </message>
    <message>
        <source>no address yet</source>
        <translation>noch keine Adresse</translation>
    </message>
    <message>
        <source>Listening: agents can connect now.</source>
        <translation>Lauscht: Agenten können sich jetzt verbinden.</translation>
    </message>
    <message>
        <source>Starting the listener…</source>
        <translation>Der Listener wird gestartet…</translation>
    </message>
    <message>
        <source>Stopping the listener…</source>
        <translation>Der Listener wird gestoppt…</translation>
    </message>
    <message>
        <source>Not listening: agents cannot connect until the HTTP server is started on the Server page.</source>
        <translation>Lauscht nicht: Agenten können sich erst verbinden, wenn der HTTP-Server auf der Seite Server gestartet ist.</translation>
    </message>
    <message>
        <source>The HTTP server could not start: %1. Change the address or port on the Server page and start it again.</source>
        <translation>Der HTTP-Server konnte nicht starten: %1. Ändern Sie Adresse oder Port auf der Seite Server und starten Sie ihn erneut.</translation>
    </message>
    <message>
        <source>no reason given</source>
        <translation>kein Grund angegeben</translation>
    </message>
    <message>
        <source>1 node is</source>
        <translation>1 Knoten ist</translation>
    </message>
    <message>
        <source>%1 nodes are</source>
        <translation>%1 Knoten sind</translation>
    </message>
    <message>
        <source>&lt;b&gt;Memories arrived.&lt;/b&gt; %1 stored now.</source>
        <translation>&lt;b&gt;Erinnerungen sind angekommen.&lt;/b&gt; %1 jetzt gespeichert.</translation>
    </message>
    <message>
        <source>%1 stored.</source>
        <translation>%1 gespeichert.</translation>
    </message>
    <message>
        <source>Loading sample memories…</source>
        <translation>Beispiel-Erinnerungen werden geladen…</translation>
    </message>
    <message>
        <source>Run in a terminal:</source>
        <translation>In einem Terminal ausführen:</translation>
    </message>
    <message>
        <source>Add to %1:</source>
        <translation>Zu %1 hinzufügen:</translation>
    </message>
    <message>
        <source>Copied.</source>
        <translation>Kopiert.</translation>
    </message>
</context>
<context>
    <name>PortabilityFlow</name>
    <message>
        <source>%1: %2 of %3</source>
        <translation>%1: %2 von %3</translation>
    </message>
    <message>
        <source>Memory Graph exports (*.jsonl *.ndjson);;All files (*)</source>
        <translation>Memory-Graph-Exporte (*.jsonl *.ndjson);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>nothing</source>
        <translation>nichts</translation>
    </message>
</context>
<context>
    <name>SampleLoader</name>
    <message>
        <source>Cannot open %1: %2</source>
        <translation>%1 kann nicht geöffnet werden: %2</translation>
    </message>
    <message>
        <source>%1 is not a JSON array of write bodies: %2</source>
        <translation>%1 ist kein JSON-Array von Schreib-Anfragen: %2</translation>
    </message>
    <message>
        <source>Entry %1: %2 (%3)</source>
        <translation>Eintrag %1: %2 (%3)</translation>
    </message>
</context>
</TS>
