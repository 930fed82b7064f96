#include "ui/pages/httpexample.h"

namespace MemoryGraph::Ui::HttpExample {

QString curlText(const QString &baseUrl, bool needsKey)
{
    // Continuation lines keep each command readable in a terminal and in the page.
    const QString json = QStringLiteral(" \\\n  -H 'Content-Type: application/json'");
    const QString key
        = needsKey ? QStringLiteral(" \\\n  -H 'X-Api-Key: <your API key>'") : QString();
    return QStringLiteral("curl -s %1/health\n"
                          "\n"
                          "curl -s -X POST %1/v1/memory/write%2%3 -d '{\n"
                          "  \"input_text\": \"Alice prefers short answers.\",\n"
                          "  \"nodes\": [{\"client_id\": \"pref-alice-short\", \"type\": "
                          "\"entity\", \"title\": \"Alice\",\n"
                          "             \"text_summary\": \"Alice prefers short answers.\"}]\n"
                          "}'\n"
                          "\n"
                          "curl -s -X POST %1/v1/memory/recall_text%2%3 \\\n"
                          "  -d '{\"query_text\": \"How does Alice like her answers?\", "
                          "\"limit\": 5}'")
        .arg(baseUrl, json, key);
}

} // namespace MemoryGraph::Ui::HttpExample
