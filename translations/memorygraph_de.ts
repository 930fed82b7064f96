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
        <translation type="unfinished">Spur</translation>
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
        <source>Refresh</source>
        <translation type="unfinished">Aktualisieren</translation>
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
        <translation type="unfinished">Knoten</translation>
    </message>
    <message>
        <source>No scope selected.</source>
        <translation>Kein Bereich ausgewählt.</translation>
    </message>
    <message>
        <source>Pick a start node.</source>
        <translation>Wählen Sie einen Startknoten.</translation>
    </message>
    <message>
        <source>No scope selected</source>
        <translation type="unfinished">Kein Bereich ausgewählt</translation>
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
        <source>The node no longer exists.</source>
        <translation type="unfinished">Der Knoten existiert nicht mehr.</translation>
    </message>
    <message>
        <source>Could not load the node:
%1</source>
        <translation type="unfinished">Der Knoten konnte nicht geladen werden:
%1</translation>
    </message>
    <message>
        <source>%1
%2 · %3 · %4
%5</source>
        <translation type="unfinished">%1 · %2 · %4
%5 {1
%2 ?} {3 ?}</translation>
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
        <translation type="unfinished">Graph</translation>
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
        <source>Refresh</source>
        <translation>Aktualisieren</translation>
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
        <source>Loading nodes failed</source>
        <translation>Laden der Knoten fehlgeschlagen</translation>
    </message>
    <message>
        <source>Loading commits failed</source>
        <translation>Laden der Commits fehlgeschlagen</translation>
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
        <source>The node no longer exists.</source>
        <translation>Der Knoten existiert nicht mehr.</translation>
    </message>
    <message>
        <source>Could not load the node:
%1</source>
        <translation>Der Knoten konnte nicht geladen werden:
%1</translation>
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
        <source>%1: %2</source>
        <translation>%1: %2</translation>
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
        <source>Error: %1</source>
        <translation>Fehler: %1</translation>
    </message>
    <message>
        <source>Model: %1</source>
        <translation>Modell: %1</translation>
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
        <translation type="unfinished">Titel</translation>
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
        <source>Fills the knobs with a recall profile&apos;s defaults (spec ੴ.3.1). Server default sends no knobs, so the server&apos;s profile policy applies; a named profile is sent as its seven knob values.</source>
        <translation type="unfinished"></translation>
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
        <source>Seeds to find by vector similarity (1㈀)</source>
        <translation type="unfinished"></translation>
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
        <source>Nodes in the returned subgraph (1㈀)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Max &amp;edges:</source>
        <translation>Max. &amp;Kanten:</translation>
    </message>
    <message>
        <source>Edges in the returned subgraph (0㄀)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Ranked limit:</source>
        <translation>&amp;Ranglisten-Limit:</translation>
    </message>
    <message>
        <source>Entries in the ranked list (1㔀)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Min edge &amp;weight:</source>
        <translation>Min. Kanten&amp;gewicht:</translation>
    </message>
    <message>
        <source>Edges below this weight are not followed (0ı)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Min edge confi&amp;dence:</source>
        <translation>Min. Kanten&amp;konfidenz:</translation>
    </message>
    <message>
        <source>Edges below this confidence are not followed (0ı)</source>
        <translation type="unfinished"></translation>
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
        <translation type="unfinished">Im &amp;Graphen zeigen</translation>
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
        <translation type="unfinished">Legende</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation type="unfinished">Einpassen</translation>
    </message>
    <message>
        <source>Fit the whole subgraph in view (0 on the canvas)</source>
        <translation>Den ganzen Teilgraphen in die Ansicht einpassen (0 auf der Zeichenfläche)</translation>
    </message>
    <message>
        <source>Node</source>
        <translation type="unfinished">Knoten</translation>
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
        <translation type="unfinished">%1: %2</translation>
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
        <source>The node no longer exists.</source>
        <translation type="unfinished">Der Knoten existiert nicht mehr.</translation>
    </message>
    <message>
        <source>Could not load the node:
%1</source>
        <translation type="unfinished">Der Knoten konnte nicht geladen werden:
%1</translation>
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
        <translation type="unfinished">&amp;Bereich:</translation>
    </message>
    <message>
        <source>%1 / %2  (%3 nodes)</source>
        <translation type="unfinished">%1 / %2  (%3 Knoten)</translation>
    </message>
    <message>
        <source>%1 nodes, %2 edges, %3 commits</source>
        <translation type="unfinished">%1 Knoten, %2 Kanten, %3 Commits</translation>
    </message>
    <message>
        <source>No scopes yet</source>
        <translation type="unfinished">Noch keine Bereiche</translation>
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
        <translation type="unfinished">Titel</translation>
    </message>
    <message>
        <source>Type</source>
        <translation type="unfinished">Typ</translation>
    </message>
    <message>
        <source>Tier</source>
        <translation type="unfinished">Stufe</translation>
    </message>
    <message>
        <source>Similarity</source>
        <translation>Ähnlichkeit</translation>
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
