<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>CommandLine</name>
    <message>
        <location filename="../app/commandline.cpp" line="15"/>
        <source>Serve HTTP only, without the admin window.</source>
        <translation>Nur HTTP bereitstellen, ohne Verwaltungsfenster.</translation>
    </message>
    <message>
        <location filename="../app/commandline.cpp" line="18"/>
        <source>Address to listen on (default 127.0.0.1). A non-loopback address needs MEMORY_AUTH_MODE other than off.</source>
        <translation>Adresse, auf der gelauscht wird (Standard 127.0.0.1). Eine Adresse außerhalb von Loopback erfordert MEMORY_AUTH_MODE ungleich off.</translation>
    </message>
    <message>
        <location filename="../app/commandline.cpp" line="23"/>
        <source>TCP port to listen on (default 8787, 0 = any free port).</source>
        <translation>TCP-Port, auf dem gelauscht wird (Standard 8787, 0 = beliebiger freier Port).</translation>
    </message>
    <message>
        <location filename="../app/commandline.cpp" line="27"/>
        <source>Folder for the database and indexes (created if missing; default: the user&apos;s application data folder).</source>
        <translation>Ordner für Datenbank und Indizes (wird bei Bedarf angelegt; Standard: der Anwendungsdatenordner des Benutzers).</translation>
    </message>
    <message>
        <location filename="../app/commandline.cpp" line="32"/>
        <source>Use the dark colour theme in the admin window.</source>
        <translation>Dunkles Farbschema im Verwaltungsfenster verwenden.</translation>
    </message>
    <message>
        <location filename="../app/commandline.cpp" line="40"/>
        <source>Memory Graph: an agent-memory graph service with a desktop admin console.
With a display it opens the admin window and serves the HTTP /v1 API; with --headless, or when no display is available, it only serves HTTP.</source>
        <translation>Memory Graph: ein Gedächtnisgraph-Dienst für Agenten mit Desktop-Verwaltungskonsole.
Mit Bildschirm öffnet es das Verwaltungsfenster und stellt die HTTP-/v1-API bereit; mit --headless oder ohne verfügbaren Bildschirm stellt es nur HTTP bereit.</translation>
    </message>
</context>
<context>
    <name>MemoryGraph::Ui::CommitListModel</name>
    <message>
        <location filename="../ui/models/commitlistmodel.cpp" line="67"/>
        <source>Seq</source>
        <translation>Nr.</translation>
    </message>
    <message>
        <location filename="../ui/models/commitlistmodel.cpp" line="69"/>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <location filename="../ui/models/commitlistmodel.cpp" line="71"/>
        <source>Kind</source>
        <translation>Art</translation>
    </message>
    <message>
        <location filename="../ui/models/commitlistmodel.cpp" line="73"/>
        <source>Actor</source>
        <translation>Akteur</translation>
    </message>
    <message>
        <location filename="../ui/models/commitlistmodel.cpp" line="75"/>
        <source>Hash</source>
        <translation>Hash</translation>
    </message>
    <message>
        <location filename="../ui/models/commitlistmodel.cpp" line="77"/>
        <source>Commit id</source>
        <translation>Commit-ID</translation>
    </message>
</context>
<context>
    <name>MemoryGraph::Ui::MainWindow</name>
    <message>
        <location filename="../ui/mainwindow.cpp" line="36"/>
        <source>Memory Graph</source>
        <translation>Memory Graph</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="103"/>
        <source>Server</source>
        <translation>Server</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="103"/>
        <source>HTTP listener and request log (Ctrl+1)</source>
        <translation>HTTP-Listener und Anfrageprotokoll (Strg+1)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="104"/>
        <source>Memory</source>
        <translation>Gedächtnis</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="105"/>
        <source>Browse nodes, edges and commits (Ctrl+2)</source>
        <translation>Knoten, Kanten und Commits durchsuchen (Strg+2)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="119"/>
        <source>&amp;Load sample memories</source>
        <translation>Beispiel-Erinnerungen &amp;laden</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="121"/>
        <source>Write a small example memory graph into the default scope</source>
        <translation>Einen kleinen Beispiel-Gedächtnisgraphen in den Standardbereich schreiben</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="124"/>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="130"/>
        <source>&amp;About Memory Graph</source>
        <translation>&amp;Über Memory Graph</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="135"/>
        <source>&amp;Server</source>
        <translation>&amp;Server</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="139"/>
        <source>&amp;Memory</source>
        <translation>&amp;Gedächtnis</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="147"/>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="152"/>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="156"/>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="190"/>
        <source>Loading sample memories…</source>
        <translation>Beispiel-Erinnerungen werden geladen…</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="202"/>
        <source>Loaded %1 of %2 sample writes: %3 nodes, %4 edges.</source>
        <translation>%1 von %2 Beispiel-Schreibvorgängen geladen: %3 Knoten, %4 Kanten.</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="208"/>
        <source>They were already stored, so nothing changed.</source>
        <translation>Sie waren bereits gespeichert; nichts wurde geändert.</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="213"/>
        <source>Sample memories</source>
        <translation>Beispiel-Erinnerungen</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="214"/>
        <source>Some sample memories could not be written.</source>
        <translation>Einige Beispiel-Erinnerungen konnten nicht geschrieben werden.</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="241"/>
        <source>1 scope</source>
        <translation>1 Bereich</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="242"/>
        <source>%1 scopes</source>
        <translation>%1 Bereiche</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="243"/>
        <source>%1 nodes · %2 edges · %3 commits in %4</source>
        <translation>%1 Knoten · %2 Kanten · %3 Commits in %4</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="254"/>
        <source>About Memory Graph</source>
        <translation>Über Memory Graph</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="255"/>
        <source>&lt;h3&gt;Memory Graph %1&lt;/h3&gt;&lt;p&gt;An agent-memory graph service with a desktop console. Agents use the HTTP &lt;code&gt;/v1&lt;/code&gt; API; operators browse the same graph here.&lt;/p&gt;&lt;p&gt;Licensed under the GNU GPL, version 3 or later.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Memory Graph %1&lt;/h3&gt;&lt;p&gt;Ein Gedächtnisgraph-Dienst für Agenten mit Desktop-Konsole. Agenten nutzen die HTTP-API &lt;code&gt;/v1&lt;/code&gt;; Betreiber durchsuchen hier denselben Graphen.&lt;/p&gt;&lt;p&gt;Lizenziert unter der GNU GPL, Version 3 oder neuer.&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>MemoryGraph::Ui::MemoryPage</name>
    <message>
        <location filename="../ui/pages/memorypage.cpp" line="84"/>
        <source>Node</source>
        <translation>Knoten</translation>
    </message>
    <message>
        <location filename="../ui/pages/memorypage.cpp" line="114"/>
        <source>No node selected.

Load the sample memories from the File menu, or write through the HTTP API, to see nodes here.</source>
        <translation>Kein Knoten ausgewählt.

Laden Sie die Beispiel-Erinnerungen über das Menü „Datei“ oder schreiben Sie über die HTTP-API, um hier Knoten zu sehen.</translation>
    </message>
    <message>
        <location filename="../ui/pages/memorypage.cpp" line="137"/>
        <source>Refresh</source>
        <translation>Aktualisieren</translation>
    </message>
    <message>
        <location filename="../ui/pages/memorypage.cpp" line="140"/>
        <source>Reload scopes, nodes and commits (%1)</source>
        <translation>Bereiche, Knoten und Commits neu laden (%1)</translation>
    </message>
    <message>
        <location filename="../ui/pages/memorypage.cpp" line="150"/>
        <source>Filter by title, summary or client id</source>
        <translation>Nach Titel, Zusammenfassung oder Client-ID filtern</translation>
    </message>
    <message>
        <location filename="../ui/pages/memorypage.cpp" line="156"/>
        <source>All types</source>
        <translation>Alle Typen</translation>
    </message>
    <message>
        <location filename="../ui/pages/memorypage.cpp" line="162"/>
        <source>All tiers</source>
        <translation>Alle Stufen</translation>
    </message>
    <message>
        <location filename="../ui/pages/memorypage.cpp" line="166"/>
        <source>All lanes</source>
        <translation>Alle Spuren</translation>
    </message>
    <message>
        <location filename="../ui/pages/memorypage.cpp" line="170"/>
        <source>&amp;Scope:</source>
        <translation>&amp;Bereich:</translation>
    </message>
    <message>
        <location filename="../ui/pages/memorypage.cpp" line="200"/>
        <source>Nodes</source>
        <translation>Knoten</translation>
    </message>
    <message>
        <location filename="../ui/pages/memorypage.cpp" line="219"/>
        <source>Previous</source>
        <translation>Zurück</translation>
    </message>
    <message>
        <location filename="../ui/pages/memorypage.cpp" line="222"/>
        <source>Next</source>
        <translation>Weiter</translation>
    </message>
    <message>
        <location filename="../ui/pages/memorypage.cpp" line="262"/>
        <location filename="../ui/pages/memorypage.cpp" line="443"/>
        <source>Commits</source>
        <translation>Commits</translation>
    </message>
    <message>
        <location filename="../ui/pages/memorypage.cpp" line="348"/>
        <source>%1 / %2  (%3 nodes)</source>
        <translation>%1 / %2  (%3 Knoten)</translation>
    </message>
    <message>
        <location filename="../ui/pages/memorypage.cpp" line="355"/>
        <source>%1 nodes, %2 edges, %3 commits</source>
        <translation>%1 Knoten, %2 Kanten, %3 Commits</translation>
    </message>
    <message>
        <location filename="../ui/pages/memorypage.cpp" line="362"/>
        <source>No scopes yet</source>
        <translation>Noch keine Bereiche</translation>
    </message>
    <message>
        <location filename="../ui/pages/memorypage.cpp" line="407"/>
        <source>Loading nodes failed</source>
        <translation>Laden der Knoten fehlgeschlagen</translation>
    </message>
    <message>
        <location filename="../ui/pages/memorypage.cpp" line="455"/>
        <source>Loading commits failed</source>
        <translation>Laden der Commits fehlgeschlagen</translation>
    </message>
    <message>
        <location filename="../ui/pages/memorypage.cpp" line="462"/>
        <source>Commits (newest %1)</source>
        <translation>Commits (neueste %1)</translation>
    </message>
    <message>
        <location filename="../ui/pages/memorypage.cpp" line="463"/>
        <source>Commits (%1, newest first)</source>
        <translation>Commits (%1, neueste zuerst)</translation>
    </message>
    <message>
        <location filename="../ui/pages/memorypage.cpp" line="482"/>
        <source>The node no longer exists.</source>
        <translation>Der Knoten existiert nicht mehr.</translation>
    </message>
    <message>
        <location filename="../ui/pages/memorypage.cpp" line="483"/>
        <source>Could not load the node:
%1</source>
        <translation>Der Knoten konnte nicht geladen werden:
%1</translation>
    </message>
    <message>
        <location filename="../ui/pages/memorypage.cpp" line="496"/>
        <source>Select a node to inspect it.</source>
        <translation>Wählen Sie einen Knoten aus, um ihn zu untersuchen.</translation>
    </message>
    <message>
        <location filename="../ui/pages/memorypage.cpp" line="520"/>
        <source>No scope selected</source>
        <translation>Kein Bereich ausgewählt</translation>
    </message>
    <message>
        <location filename="../ui/pages/memorypage.cpp" line="520"/>
        <source>No nodes</source>
        <translation>Keine Knoten</translation>
    </message>
    <message>
        <location filename="../ui/pages/memorypage.cpp" line="522"/>
        <source>Rows %1–%2 of %3</source>
        <translation>Zeilen %1–%2 von %3</translation>
    </message>
    <message>
        <location filename="../ui/pages/memorypage.cpp" line="529"/>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
</context>
<context>
    <name>MemoryGraph::Ui::NodeInspector</name>
    <message>
        <location filename="../ui/widgets/nodeinspector.cpp" line="59"/>
        <source>Select a node to inspect it.</source>
        <translation>Wählen Sie einen Knoten aus, um ihn zu untersuchen.</translation>
    </message>
    <message>
        <location filename="../ui/widgets/nodeinspector.cpp" line="83"/>
        <source>Field</source>
        <translation>Feld</translation>
    </message>
    <message>
        <location filename="../ui/widgets/nodeinspector.cpp" line="83"/>
        <source>Value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <location filename="../ui/widgets/nodeinspector.cpp" line="101"/>
        <source>Type</source>
        <translation>Typ</translation>
    </message>
    <message>
        <location filename="../ui/widgets/nodeinspector.cpp" line="101"/>
        <source>Direction</source>
        <translation>Richtung</translation>
    </message>
    <message>
        <location filename="../ui/widgets/nodeinspector.cpp" line="101"/>
        <source>Other node</source>
        <translation>Anderer Knoten</translation>
    </message>
    <message>
        <location filename="../ui/widgets/nodeinspector.cpp" line="101"/>
        <source>Weight</source>
        <translation>Gewicht</translation>
    </message>
    <message>
        <location filename="../ui/widgets/nodeinspector.cpp" line="102"/>
        <source>Confidence</source>
        <translation>Konfidenz</translation>
    </message>
    <message>
        <location filename="../ui/widgets/nodeinspector.cpp" line="102"/>
        <source>Other node id</source>
        <translation>ID des anderen Knotens</translation>
    </message>
    <message>
        <location filename="../ui/widgets/nodeinspector.cpp" line="111"/>
        <source>Double-click an edge to open the node at its other end</source>
        <translation>Doppelklicken Sie auf eine Kante, um den Knoten an ihrem anderen Ende zu öffnen</translation>
    </message>
    <message>
        <location filename="../ui/widgets/nodeinspector.cpp" line="134"/>
        <source>Edges</source>
        <translation>Kanten</translation>
    </message>
    <message>
        <location filename="../ui/widgets/nodeinspector.cpp" line="138"/>
        <source>Fields</source>
        <translation>Felder</translation>
    </message>
    <message>
        <location filename="../ui/widgets/nodeinspector.cpp" line="139"/>
        <source>Slots</source>
        <translation>Slots</translation>
    </message>
    <message>
        <location filename="../ui/widgets/nodeinspector.cpp" line="157"/>
        <source>(untitled %1)</source>
        <translation>(ohne Titel %1)</translation>
    </message>
    <message>
        <location filename="../ui/widgets/nodeinspector.cpp" line="235"/>
        <source>Identity</source>
        <translation>Identität</translation>
    </message>
    <message>
        <location filename="../ui/widgets/nodeinspector.cpp" line="245"/>
        <source>Ownership</source>
        <translation>Eigentümer</translation>
    </message>
    <message>
        <location filename="../ui/widgets/nodeinspector.cpp" line="250"/>
        <source>Content</source>
        <translation>Inhalt</translation>
    </message>
    <message>
        <location filename="../ui/widgets/nodeinspector.cpp" line="256"/>
        <source>Embedding</source>
        <translation>Embedding</translation>
    </message>
    <message>
        <location filename="../ui/widgets/nodeinspector.cpp" line="261"/>
        <source>Scores</source>
        <translation>Bewertungen</translation>
    </message>
    <message>
        <location filename="../ui/widgets/nodeinspector.cpp" line="266"/>
        <source>Times</source>
        <translation>Zeiten</translation>
    </message>
    <message>
        <location filename="../ui/widgets/nodeinspector.cpp" line="270"/>
        <source>never</source>
        <translation>nie</translation>
    </message>
    <message>
        <location filename="../ui/widgets/nodeinspector.cpp" line="286"/>
        <source>↺ self</source>
        <translation>↺ selbst</translation>
    </message>
    <message>
        <location filename="../ui/widgets/nodeinspector.cpp" line="287"/>
        <source>This node points to itself</source>
        <translation>Dieser Knoten zeigt auf sich selbst</translation>
    </message>
    <message>
        <location filename="../ui/widgets/nodeinspector.cpp" line="289"/>
        <source>→ out</source>
        <translation>→ ausgehend</translation>
    </message>
    <message>
        <location filename="../ui/widgets/nodeinspector.cpp" line="290"/>
        <source>This node → other node</source>
        <translation>Dieser Knoten → anderer Knoten</translation>
    </message>
    <message>
        <location filename="../ui/widgets/nodeinspector.cpp" line="292"/>
        <source>← in</source>
        <translation>← eingehend</translation>
    </message>
    <message>
        <location filename="../ui/widgets/nodeinspector.cpp" line="293"/>
        <source>Other node → this node</source>
        <translation>Anderer Knoten → dieser Knoten</translation>
    </message>
    <message>
        <location filename="../ui/widgets/nodeinspector.cpp" line="313"/>
        <source>Edges (%1)</source>
        <translation>Kanten (%1)</translation>
    </message>
</context>
<context>
    <name>MemoryGraph::Ui::NodeTableModel</name>
    <message>
        <location filename="../ui/models/nodetablemodel.cpp" line="52"/>
        <source>team %1</source>
        <translation>Team %1</translation>
    </message>
    <message>
        <location filename="../ui/models/nodetablemodel.cpp" line="73"/>
        <source>Owner agent: %1
Owner team: %2
Producer: %3</source>
        <translation>Eigentümer-Agent: %1
Eigentümer-Team: %2
Erzeuger: %3</translation>
    </message>
    <message>
        <location filename="../ui/models/nodetablemodel.cpp" line="77"/>
        <source>Error: %1</source>
        <translation>Fehler: %1</translation>
    </message>
    <message>
        <location filename="../ui/models/nodetablemodel.cpp" line="78"/>
        <source>Model: %1</source>
        <translation>Modell: %1</translation>
    </message>
    <message>
        <location filename="../ui/models/nodetablemodel.cpp" line="92"/>
        <source>Title</source>
        <translation>Titel</translation>
    </message>
    <message>
        <location filename="../ui/models/nodetablemodel.cpp" line="94"/>
        <source>Type</source>
        <translation>Typ</translation>
    </message>
    <message>
        <location filename="../ui/models/nodetablemodel.cpp" line="96"/>
        <source>Tier</source>
        <translation>Stufe</translation>
    </message>
    <message>
        <location filename="../ui/models/nodetablemodel.cpp" line="98"/>
        <source>Lane</source>
        <translation>Spur</translation>
    </message>
    <message>
        <location filename="../ui/models/nodetablemodel.cpp" line="100"/>
        <source>Owner</source>
        <translation>Eigentümer</translation>
    </message>
    <message>
        <location filename="../ui/models/nodetablemodel.cpp" line="102"/>
        <source>Embedding</source>
        <translation>Embedding</translation>
    </message>
    <message>
        <location filename="../ui/models/nodetablemodel.cpp" line="104"/>
        <source>Updated</source>
        <translation>Aktualisiert</translation>
    </message>
    <message>
        <location filename="../ui/models/nodetablemodel.cpp" line="106"/>
        <source>Client id</source>
        <translation>Client-ID</translation>
    </message>
    <message>
        <location filename="../ui/models/nodetablemodel.cpp" line="108"/>
        <source>Id</source>
        <translation>ID</translation>
    </message>
</context>
<context>
    <name>MemoryGraph::Ui::RequestLogModel</name>
    <message>
        <location filename="../ui/models/requestlogmodel.cpp" line="71"/>
        <source>Error: %1</source>
        <translation>Fehler: %1</translation>
    </message>
    <message>
        <location filename="../ui/models/requestlogmodel.cpp" line="97"/>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <location filename="../ui/models/requestlogmodel.cpp" line="99"/>
        <source>Method</source>
        <translation>Methode</translation>
    </message>
    <message>
        <location filename="../ui/models/requestlogmodel.cpp" line="101"/>
        <source>Path</source>
        <translation>Pfad</translation>
    </message>
    <message>
        <location filename="../ui/models/requestlogmodel.cpp" line="103"/>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <location filename="../ui/models/requestlogmodel.cpp" line="105"/>
        <source>Latency (ms)</source>
        <translation>Latenz (ms)</translation>
    </message>
    <message>
        <location filename="../ui/models/requestlogmodel.cpp" line="107"/>
        <source>Tenant</source>
        <translation>Mandant</translation>
    </message>
    <message>
        <location filename="../ui/models/requestlogmodel.cpp" line="109"/>
        <source>Request id</source>
        <translation>Anfrage-ID</translation>
    </message>
</context>
<context>
    <name>MemoryGraph::Ui::ServerPage</name>
    <message>
        <location filename="../ui/pages/serverpage.cpp" line="69"/>
        <source>HTTP server</source>
        <translation>HTTP-Server</translation>
    </message>
    <message>
        <location filename="../ui/pages/serverpage.cpp" line="73"/>
        <source>Address the /v1 API listens on</source>
        <translation>Adresse, auf der die /v1-API lauscht</translation>
    </message>
    <message>
        <location filename="../ui/pages/serverpage.cpp" line="81"/>
        <source>any free port</source>
        <translation>beliebiger freier Port</translation>
    </message>
    <message>
        <location filename="../ui/pages/serverpage.cpp" line="109"/>
        <source>Bind address:</source>
        <translation>Bind-Adresse:</translation>
    </message>
    <message>
        <location filename="../ui/pages/serverpage.cpp" line="111"/>
        <source>Port:</source>
        <translation>Port:</translation>
    </message>
    <message>
        <location filename="../ui/pages/serverpage.cpp" line="114"/>
        <source>Auth mode:</source>
        <translation>Authentifizierung:</translation>
    </message>
    <message>
        <location filename="../ui/pages/serverpage.cpp" line="116"/>
        <source>State:</source>
        <translation>Zustand:</translation>
    </message>
    <message>
        <location filename="../ui/pages/serverpage.cpp" line="118"/>
        <source>Base URL:</source>
        <translation>Basis-URL:</translation>
    </message>
    <message>
        <location filename="../ui/pages/serverpage.cpp" line="130"/>
        <source>Request log</source>
        <translation>Anfrageprotokoll</translation>
    </message>
    <message>
        <location filename="../ui/pages/serverpage.cpp" line="162"/>
        <source>Clear</source>
        <translation>Leeren</translation>
    </message>
    <message>
        <location filename="../ui/pages/serverpage.cpp" line="191"/>
        <source>Server stopped</source>
        <translation>Server gestoppt</translation>
    </message>
    <message>
        <location filename="../ui/pages/serverpage.cpp" line="193"/>
        <source>Server starting…</source>
        <translation>Server startet…</translation>
    </message>
    <message>
        <location filename="../ui/pages/serverpage.cpp" line="195"/>
        <source>Listening on %1:%2</source>
        <translation>Lauscht auf %1:%2</translation>
    </message>
    <message>
        <location filename="../ui/pages/serverpage.cpp" line="197"/>
        <source>Server stopping…</source>
        <translation>Server stoppt…</translation>
    </message>
    <message>
        <location filename="../ui/pages/serverpage.cpp" line="199"/>
        <source>Server failed: %1</source>
        <translation>Serverfehler: %1</translation>
    </message>
    <message>
        <location filename="../ui/pages/serverpage.cpp" line="283"/>
        <source>Stop</source>
        <translation>Stoppen</translation>
    </message>
    <message>
        <location filename="../ui/pages/serverpage.cpp" line="283"/>
        <source>Start</source>
        <translation>Starten</translation>
    </message>
    <message>
        <location filename="../ui/pages/serverpage.cpp" line="291"/>
        <source>not listening</source>
        <translation>lauscht nicht</translation>
    </message>
    <message>
        <location filename="../ui/pages/serverpage.cpp" line="299"/>
        <source>Authentication is off, so the server only accepts a loopback address (127.0.0.1, ::1 or localhost).</source>
        <translation>Die Authentifizierung ist aus, daher akzeptiert der Server nur eine Loopback-Adresse (127.0.0.1, ::1 oder localhost).</translation>
    </message>
    <message>
        <location filename="../ui/pages/serverpage.cpp" line="318"/>
        <source>1 request logged</source>
        <translation>1 Anfrage protokolliert</translation>
    </message>
    <message>
        <location filename="../ui/pages/serverpage.cpp" line="319"/>
        <source>%1 requests logged</source>
        <translation>%1 Anfragen protokolliert</translation>
    </message>
    <message>
        <location filename="../ui/pages/serverpage.cpp" line="321"/>
        <source>%1 requests logged, showing the newest %2</source>
        <translation>%1 Anfragen protokolliert, die neuesten %2 werden angezeigt</translation>
    </message>
</context>
<context>
    <name>SampleLoader</name>
    <message>
        <location filename="../ui/sampleloader.cpp" line="18"/>
        <source>Cannot open %1: %2</source>
        <translation>%1 kann nicht geöffnet werden: %2</translation>
    </message>
    <message>
        <location filename="../ui/sampleloader.cpp" line="24"/>
        <source>%1 is not a JSON array of write bodies: %2</source>
        <translation>%1 ist kein JSON-Array von Schreib-Anfragen: %2</translation>
    </message>
    <message>
        <location filename="../ui/sampleloader.cpp" line="35"/>
        <location filename="../ui/sampleloader.cpp" line="45"/>
        <source>Entry %1: %2 (%3)</source>
        <translation>Eintrag %1: %2 (%3)</translation>
    </message>
</context>
</TS>
