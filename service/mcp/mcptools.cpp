#include "service/mcp/mcptools.h"

#include "service/access/callscope.h"
#include "service/api/replayrequests.h"
#include "service/core/ids.h"
#include "service/core/vocabulary.h"
#include "service/memoryservice.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace MemoryGraph {

namespace {

using Props = QList<QPair<QString, QJsonObject>>;

QJsonObject prop(const char *type, const char *description)
{
    return {{QStringLiteral("type"), QLatin1String(type)},
            {QStringLiteral("description"), QLatin1String(description)}};
}

QJsonObject enumProp(const QStringList &values, const char *description)
{
    return {{QStringLiteral("type"), QStringLiteral("string")},
            {QStringLiteral("enum"), QJsonArray::fromStringList(values)},
            {QStringLiteral("description"), QLatin1String(description)}};
}

QJsonObject stringList(const char *description)
{
    return {
        {QStringLiteral("type"), QStringLiteral("array")},
        {QStringLiteral("items"), QJsonObject{{QStringLiteral("type"), QStringLiteral("string")}}},
        {QStringLiteral("description"), QLatin1String(description)}};
}

QJsonObject uuidProp(const char *description)
{
    QJsonObject p = prop("string", description);
    p.insert(QStringLiteral("format"), QStringLiteral("uuid"));
    return p;
}

/// tenant_id and scope, which every tool accepts (a credential may only name its own tenant).
Props scopeProps()
{
    return {{QStringLiteral("tenant_id"),
             prop("string", "Tenant to act in; defaults to the credential's tenant.")},
            {QStringLiteral("scope"),
             prop("string", "Memory scope (e.g. a project); defaults to the server's scope.")}};
}

Props consumerProps()
{
    return {
        {QStringLiteral("consumer_agent_id"),
         prop("string", "Agent whose private memories may be shown; defaults to the caller.")},
        {QStringLiteral("consumer_team_id"),
         prop("string", "Team whose private memories may be shown; defaults to the caller's.")}};
}

Props writeProps()
{
    return {{QStringLiteral("input_text"),
             prop("string", "The user input or reason behind this change, kept in the audit log; "
                            "defaults to the tool arguments.")},
            {QStringLiteral("memory_lane"),
             enumProp(Vocabulary::lanes(),
                      "private: only the owner (agent or team) sees it; shared: every agent of "
                      "the tenant. Default shared.")}};
}

QJsonObject objectSchema(const Props &props, const QStringList &required = {})
{
    QJsonObject properties;
    for (const auto &[name, schema] : props)
        properties.insert(name, schema);
    QJsonObject s{{QStringLiteral("type"), QStringLiteral("object")},
                  {QStringLiteral("properties"), properties}};
    if (!required.isEmpty())
        s.insert(QStringLiteral("required"), QJsonArray::fromStringList(required));
    return s;
}

QString compact(const QJsonValue &value)
{
    return value.isObject()
               ? QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact))
           : value.isArray()
               ? QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact))
               : value.toVariant().toString();
}

/// A state-changing call needs the input that caused it; the arguments stand in when the model
/// gave none.
void defaultInput(QJsonObject *body, const QJsonObject &arguments, const QString &fallback = {})
{
    if (body->contains(QStringLiteral("input_text"))
        || body->contains(QStringLiteral("input_sha256")))
        return;
    body->insert(QStringLiteral("input_text"), fallback.isEmpty() ? compact(arguments) : fallback);
}

McpToolOutput jsonOutput(const QString &lead, const QJsonObject &body)
{
    return {lead.isEmpty() ? compact(body) : lead + QStringLiteral("\n\n") + compact(body), body};
}

/// A tool that passes its arguments through to one /v1 route as the body.
std::function<Result<McpToolOutput>(const QJsonObject &, McpCall &, MemoryService *)>
passThrough(const QString &path, bool writes)
{
    return [path, writes](const QJsonObject &args, McpCall &call,
                          MemoryService *) -> Result<McpToolOutput> {
        QJsonObject body = args;
        if (writes)
            defaultInput(&body, args);
        auto answer = call.invoke(path, body);
        if (!answer)
            return answer.error();
        answer.value().remove(QStringLiteral("request_id"));
        return jsonOutput(QString(), answer.value());
    };
}

/// The lead of an automation run answer: where the run stands and what the model can do next.
QString automationLead(const QJsonObject &answer)
{
    const QJsonObject run = answer.value(QStringLiteral("run")).toObject();
    QString lead = QStringLiteral("Automation run %1 (%2 version %3) is %4.")
                       .arg(run.value(QStringLiteral("run_id")).toString(),
                            run.value(QStringLiteral("automation_id")).toString())
                       .arg(run.value(QStringLiteral("automation_version")).toInt())
                       .arg(run.value(QStringLiteral("status_summary")).toString());
    const QString pause = run.value(QStringLiteral("pause_reason")).toString();
    if (pause == QLatin1String("approval_required"))
        lead += QStringLiteral(" It waits for an approval: call automation_resume with this "
                               "run_id once the step may go ahead.");
    else if (pause == QLatin1String("repair_required"))
        lead += QStringLiteral(" It waits for a newer approved version of its playbook.");
    const QString cause = run.value(QStringLiteral("root_cause_message")).toString();
    if (!cause.isEmpty())
        lead += QStringLiteral(" Cause: %1 (%2).")
                    .arg(cause, run.value(QStringLiteral("root_cause_code")).toString());
    return lead;
}

/// A tool over one /v1/automations/ route whose answer is a run.
std::function<Result<McpToolOutput>(const QJsonObject &, McpCall &, MemoryService *)>
automationRun(const QString &path)
{
    return
        [path](const QJsonObject &args, McpCall &call, MemoryService *) -> Result<McpToolOutput> {
            auto answer = call.invoke(path, args);
            if (!answer)
                return answer.error();
            answer.value().remove(QStringLiteral("request_id"));
            return jsonOutput(automationLead(answer.value()), answer.value());
        };
}

Result<McpToolOutput> remember(const QJsonObject &args, McpCall &call, MemoryService *)
{
    QJsonObject body = args;
    const QJsonValue text = args.value(QStringLiteral("text"));
    for (const char *key : {"text", "title", "type", "client_id"})
        body.remove(QLatin1String(key));
    if (!text.isUndefined() && !text.isString())
        return Error::invalidField(QStringLiteral("text"), QStringLiteral("must be a string"));
    const QString plain = text.toString().trimmed();
    if (plain.isEmpty() && !args.value(QStringLiteral("nodes")).isArray())
        return Error::invalidField(QStringLiteral("text"),
                                   QStringLiteral("text or nodes is required"));
    if (!plain.isEmpty()) {
        QJsonObject node{{QStringLiteral("type"),
                          args.value(QStringLiteral("type")).toString(QStringLiteral("event"))},
                         {QStringLiteral("text_summary"), plain}};
        for (const char *key : {"title", "client_id"}) {
            if (args.contains(QLatin1String(key)))
                node.insert(QLatin1String(key), args.value(QLatin1String(key)));
        }
        QJsonArray nodes = args.value(QStringLiteral("nodes")).toArray();
        nodes.prepend(node);
        body.insert(QStringLiteral("nodes"), nodes);
    }
    defaultInput(&body, args, plain);
    auto answer = call.invoke(QStringLiteral("/v1/memory/write"), body);
    if (!answer)
        return answer.error();
    QJsonObject out = answer.value();
    out.remove(QStringLiteral("request_id"));
    const QJsonArray nodes = out.value(QStringLiteral("nodes")).toArray();
    QStringList uris;
    for (const QJsonValue &n : nodes)
        uris << n.toObject().value(QStringLiteral("uri")).toString();
    const QString lead
        = QStringLiteral("Remembered %1 node(s) and %2 edge(s) in %3/%4: %5")
              .arg(nodes.size())
              .arg(out.value(QStringLiteral("edges")).toArray().size())
              .arg(out.value(QStringLiteral("tenant_id")).toString(),
                   out.value(QStringLiteral("scope")).toString(), uris.join(QStringLiteral(", ")));
    return jsonOutput(lead, out);
}

Result<McpToolOutput> recall(const QJsonObject &args, McpCall &call, MemoryService *)
{
    QJsonObject body = args;
    body.remove(QStringLiteral("query"));
    if (args.contains(QStringLiteral("query")))
        body.insert(QStringLiteral("query_text"), args.value(QStringLiteral("query")));
    else if (!args.contains(QStringLiteral("query_text")))
        return Error::invalidField(QStringLiteral("query"), QStringLiteral("is required"));
    auto answer = call.invoke(QStringLiteral("/v1/memory/recall_text"), body);
    if (!answer)
        return answer.error();
    const QJsonObject &r = answer.value();
    const QJsonObject context = r.value(QStringLiteral("context")).toObject();
    QJsonArray seeds;
    for (const QJsonValue &s : r.value(QStringLiteral("seeds")).toArray())
        seeds.append(s);
    const QJsonObject out{{QStringLiteral("tenant_id"), r.value(QStringLiteral("tenant_id"))},
                          {QStringLiteral("scope"), r.value(QStringLiteral("scope"))},
                          {QStringLiteral("context"), context},
                          {QStringLiteral("seeds"), seeds}};
    QString text = context.value(QStringLiteral("text")).toString();
    if (text.trimmed().isEmpty())
        text = QStringLiteral("Nothing relevant is remembered.");
    const QJsonArray citations = context.value(QStringLiteral("citations")).toArray();
    if (!citations.isEmpty())
        text += QStringLiteral("\n\nCitations: ") + compact(citations);
    return McpToolOutput{text, out};
}

Result<McpToolOutput> get(const QJsonObject &args, McpCall &call, MemoryService *service)
{
    const QString target = args.value(QStringLiteral("uri")).toString().trimmed().isEmpty()
                               ? args.value(QStringLiteral("id")).toString().trimmed()
                               : args.value(QStringLiteral("uri")).toString().trimmed();
    if (target.isEmpty())
        return Error::invalidField(QStringLiteral("uri"), QStringLiteral("uri or id is required"));
    auto found = McpTools::read(target, args, call, service);
    if (!found)
        return found.error();
    return jsonOutput(QString(), found.value());
}

Result<McpToolOutput> forget(const QJsonObject &args, McpCall &call, MemoryService *)
{
    QJsonObject body = args;
    body.remove(QStringLiteral("uri"));
    const QString uri = args.value(QStringLiteral("uri")).toString();
    if (!uri.isEmpty()) {
        const auto parsed = parseRecordUri(uri);
        if (!parsed)
            return Error::invalidField(QStringLiteral("uri"),
                                       QStringLiteral("must be memorygraph://<tenant>/<scope>/"
                                                      "<type>/<node id>"));
        body.insert(QStringLiteral("tenant_id"), parsed->tenantId);
        body.insert(QStringLiteral("scope"), parsed->scope);
        body.insert(QStringLiteral("node_id"), parsed->id);
    }
    if (!body.contains(QStringLiteral("node_id")))
        return Error::invalidField(QStringLiteral("node_id"),
                                   QStringLiteral("node_id or uri is required"));
    defaultInput(&body, args,
                 QStringLiteral("forget %1").arg(body.value(QStringLiteral("node_id")).toString()));
    auto answer = call.invoke(QStringLiteral("/v1/memory/forget"), body);
    if (!answer)
        return answer.error();
    const QJsonObject node = answer.value().value(QStringLiteral("node")).toObject();
    const QString lead = QStringLiteral("Forgot %1 %2; audited as commit %3.")
                             .arg(node.value(QStringLiteral("type")).toString(),
                                  node.value(QStringLiteral("id")).toString(),
                                  answer.value().value(QStringLiteral("commit_uri")).toString());
    return jsonOutput(lead, answer.value());
}

QVector<McpTool> buildTools()
{
    QVector<McpTool> tools;
    const Props scope = scopeProps();
    const Props consumer = consumerProps();
    const Props writes = writeProps();

    McpTool t;
    t.name = QStringLiteral("remember");
    t.title = QStringLiteral("Remember");
    t.description = QStringLiteral(
        "Store something worth remembering in the user's long-term memory graph: a fact, "
        "preference, decision, observation or outcome. For a plain note pass `text` (one "
        "self-contained statement, written so it makes sense on its own later) and optionally a "
        "`title` and a node `type` (default event). For structured memory pass `nodes` and "
        "`edges` exactly as the /v1/memory/write API takes them. Every write is an audited commit "
        "and returns the new nodes' memorygraph:// URIs, which `get` and `forget` accept. A new "
        "memory is found by `recall` once it is embedded, usually within a second.");
    t.inputSchema = objectSchema(
        Props{
            {QStringLiteral("text"), prop("string", "The memory as one self-contained statement.")},
            {QStringLiteral("title"), prop("string", "A short title for the memory.")},
            {QStringLiteral("type"),
             enumProp(Vocabulary::nodeTypes(), "Node type of the text memory (default event).")},
            {QStringLiteral("client_id"),
             prop("string", "Your own stable id for this memory; writing it again updates it.")},
            {QStringLiteral("nodes"),
             QJsonObject{{QStringLiteral("type"), QStringLiteral("array")},
                         {QStringLiteral("items"),
                          QJsonObject{{QStringLiteral("type"), QStringLiteral("object")}}},
                         {QStringLiteral("description"),
                          QStringLiteral("Structured nodes ({type, title, text_summary, "
                                         "client_id, slots, ...}).")}}},
            {QStringLiteral("edges"),
             QJsonObject{{QStringLiteral("type"), QStringLiteral("array")},
                         {QStringLiteral("items"),
                          QJsonObject{{QStringLiteral("type"), QStringLiteral("object")}}},
                         {QStringLiteral("description"),
                          QStringLiteral("Edges between nodes ({type: part_of|related_to|"
                                         "derived_from, src: {id|client_id}, dst: {...}}).")}}}}
        + writes + scope);
    t.run = remember;
    tools << t;

    t = McpTool();
    t.name = QStringLiteral("recall");
    t.title = QStringLiteral("Recall");
    t.description = QStringLiteral(
        "Search the memory graph for what is relevant to a question or task and get back a "
        "compact context text built from the best-matching memories and their neighbours, with "
        "citations (memorygraph:// URIs) for every item. Call it before answering questions "
        "about the user, their projects or earlier work. `query` is natural language; "
        "`context_token_budget` or `context_char_budget` cap the size of the text.");
    t.inputSchema = objectSchema(
        Props{{QStringLiteral("query"), prop("string", "What to recall, in natural language.")},
              {QStringLiteral("limit"), prop("integer", "Seed memories to start from (1-200).")},
              {QStringLiteral("context_token_budget"),
               prop("integer", "Approximate token cap for the context text.")},
              {QStringLiteral("context_char_budget"),
               prop("integer", "Character cap for the context text.")}}
            + consumer + scope,
        {QStringLiteral("query")});
    t.readOnly = true;
    t.idempotent = true;
    t.run = recall;
    tools << t;

    t = McpTool();
    t.name = QStringLiteral("get");
    t.title = QStringLiteral("Get a memory");
    t.description = QStringLiteral(
        "Read one record of the memory graph in full: a node (any memory), an edge, a commit "
        "(an audited change) or a tool decision, by its memorygraph:// URI (as returned by "
        "remember and recall citations) or by its bare id in the current scope. Use it to see a "
        "memory's complete text and slots after recall pointed at it.");
    t.inputSchema = objectSchema(
        Props{{QStringLiteral("uri"), prop("string", "memorygraph://<tenant>/<scope>/<kind>/<id>")},
              {QStringLiteral("id"), prop("string", "A bare record id of the current scope.")},
              {QStringLiteral("include_slots"),
               prop("boolean", "Include a node's structured slots (default true).")}}
        + consumer + scope);
    t.readOnly = true;
    t.idempotent = true;
    t.run = get;
    tools << t;

    t = McpTool();
    t.name = QStringLiteral("forget");
    t.title = QStringLiteral("Forget a memory");
    t.description = QStringLiteral(
        "Permanently remove one memory node, with its edges and vector, when the user asks you "
        "to forget it or it is wrong. Name it by `uri` or `node_id` and say why in `reason`. The "
        "removal is audited as a commit (the commit keeps what was removed by id, never its "
        "text). You can only forget memories your identity may see.");
    t.inputSchema = objectSchema(
        Props{{QStringLiteral("uri"), prop("string", "The memory's memorygraph:// URI.")},
              {QStringLiteral("node_id"), uuidProp("The memory's node id.")},
              {QStringLiteral("reason"), prop("string", "Why it is forgotten (audited).")},
              {QStringLiteral("input_text"),
               prop("string", "The user request behind this, kept in the audit log.")}}
        + scope);
    t.destructive = true;
    t.idempotent = false;
    t.run = forget;
    tools << t;

    t = McpTool();
    t.name = QStringLiteral("rules_evaluate");
    t.title = QStringLiteral("Evaluate rules");
    t.description = QStringLiteral(
        "Check which stored rules (learned policies such as \"prefer tool X when Y\") apply to "
        "the current situation. Pass the situation as a `context` object (intent, entities, "
        "tool names, anything the rules match on) and get back the matching active rules with "
        "their effects. Shadow rules are reported separately and only when include_shadow is "
        "true.");
    t.inputSchema = objectSchema(
        Props{{QStringLiteral("context"),
               prop("object", "The situation the rules are matched against.")},
              {QStringLiteral("include_shadow"), prop("boolean", "Also report shadow rules.")},
              {QStringLiteral("limit"), prop("integer", "Most rules to return (1-200).")}}
            + scope,
        {QStringLiteral("context")});
    t.readOnly = true;
    t.idempotent = true;
    t.run = passThrough(QStringLiteral("/v1/memory/rules/evaluate"), false);
    tools << t;

    t = McpTool();
    t.name = QStringLiteral("tools_select");
    t.title = QStringLiteral("Select a tool");
    t.description = QStringLiteral(
        "Ask the memory which of your candidate tools to use for the current step, given what "
        "rules and past feedback say. Pass the step's `context` and the `candidates` (tool "
        "names); the answer ranks them, names the selected one and records a decision whose id "
        "you pass to tools_feedback once you know how it went.");
    t.inputSchema = objectSchema(
        Props{{QStringLiteral("context"), prop("object", "The current step: intent, inputs, ...")},
              {QStringLiteral("candidates"), stringList("Tool names to choose from (1-200).")},
              {QStringLiteral("run_id"), prop("string", "Your run or conversation id.")},
              {QStringLiteral("strict"), prop("boolean", "Refuse when no candidate is allowed.")},
              {QStringLiteral("include_shadow"), prop("boolean", "Report shadow rules too.")},
              {QStringLiteral("rules_limit"), prop("integer", "Most rules to consider (1-200).")}}
            + scope,
        {QStringLiteral("context"), QStringLiteral("candidates")});
    t.run = passThrough(QStringLiteral("/v1/memory/tools/select"), false);
    tools << t;

    t = McpTool();
    t.name = QStringLiteral("tools_feedback");
    t.title = QStringLiteral("Tool feedback");
    t.description = QStringLiteral(
        "Report how a tool choice worked out so the memory learns from it: the `selected_tool`, "
        "the `outcome` (positive, negative or neutral), the same `context` and `candidates` as "
        "the selection and, when you have it, the `decision_id` tools_select returned. Feedback "
        "is audited and adjusts the rules behind future selections.");
    t.inputSchema = objectSchema(
        Props{{QStringLiteral("selected_tool"), prop("string", "The tool that was used.")},
              {QStringLiteral("outcome"),
               enumProp(Vocabulary::outcomes(), "How it went for the task.")},
              {QStringLiteral("context"), prop("object", "The step's context, as selected with.")},
              {QStringLiteral("candidates"), stringList("The candidates, as selected with.")},
              {QStringLiteral("decision_id"), uuidProp("The decision tools_select returned.")},
              {QStringLiteral("decision_uri"), prop("string", "Or the decision's URI.")},
              {QStringLiteral("run_id"), prop("string", "Your run or conversation id.")},
              {QStringLiteral("target"),
               enumProp({QStringLiteral("tool"), QStringLiteral("all")},
                        "Credit the selected tool only, or every candidate.")},
              {QStringLiteral("note"), prop("string", "What happened, briefly.")},
              {QStringLiteral("input_text"), prop("string", "The input behind this feedback.")}}
            + scope,
        {QStringLiteral("selected_tool"), QStringLiteral("outcome"), QStringLiteral("context"),
         QStringLiteral("candidates")});
    t.run = passThrough(QStringLiteral("/v1/memory/tools/feedback"), true);
    tools << t;

    t = McpTool();
    t.name = QStringLiteral("context_assemble");
    t.title = QStringLiteral("Assemble context");
    t.description = QStringLiteral(
        "Build everything you need before a step in one call: recalled memories for "
        "`query_text`, the rules that apply to `context`, and (with `tool_candidates`) a tool "
        "selection recorded as a decision, optionally as layered context (facts, episodes, "
        "rules, tools, static blocks) within a token budget. Prefer it over separate recall, "
        "rules_evaluate and tools_select calls at the start of a task.");
    t.inputSchema = objectSchema(
        Props{{QStringLiteral("query_text"), prop("string", "What the step is about.")},
              {QStringLiteral("context"), prop("object", "Situation for rules and tools.")},
              {QStringLiteral("tool_candidates"), stringList("Tools to choose from.")},
              {QStringLiteral("run_id"), prop("string", "Your run or conversation id.")},
              {QStringLiteral("include_rules"), prop("boolean", "Evaluate rules (default true).")},
              {QStringLiteral("return_layered_context"),
               prop("boolean", "Return the layered context too.")},
              {QStringLiteral("context_token_budget"),
               prop("integer", "Approximate token cap for the context text.")}}
            + consumer + scope,
        {QStringLiteral("query_text")});
    t.run = passThrough(QStringLiteral("/v1/memory/context/assemble"), false);
    tools << t;

    const Props runId{{QStringLiteral("run_id"), uuidProp("The replay run id.")}};
    t = McpTool();
    t.name = QStringLiteral("replay_run_start");
    t.title = QStringLiteral("Start a replay run");
    t.description = QStringLiteral(
        "Start recording a multi-step task as a replay run so it can be reviewed, repeated or "
        "turned into a playbook later. Pass the `goal`; the answer carries the `run_id` that "
        "replay_step_before, replay_step_after and replay_run_end take.");
    t.inputSchema = objectSchema(
        Props{{QStringLiteral("goal"), prop("string", "What the run is meant to achieve.")},
              {QStringLiteral("run_id"), uuidProp("Your own run id (a new one by default).")},
              {QStringLiteral("context_snapshot_ref"),
               prop("string", "Where the starting context is kept.")},
              {QStringLiteral("metadata"), prop("object", "Anything else about the run.")}}
            + writes + scope,
        {QStringLiteral("goal")});
    t.run = passThrough(QStringLiteral("/v1/memory/replay/run/start"), true);
    tools << t;

    t = McpTool();
    t.name = QStringLiteral("replay_step_before");
    t.title = QStringLiteral("Record a step (before)");
    t.description = QStringLiteral(
        "Record the step you are about to take in a replay run: its `step_index` (1, 2, ...), "
        "the `tool_name` and `tool_input`, and the preconditions you expect. Call "
        "replay_step_after with the same run_id and step_index once the step finished.");
    t.inputSchema = objectSchema(
        runId
            + Props{{QStringLiteral("step_index"), prop("integer", "Position of the step (1..).")},
                    {QStringLiteral("tool_name"), prop("string", "The tool the step calls.")},
                    {QStringLiteral("tool_input"), prop("object", "The tool's input.")},
                    {QStringLiteral("decision_id"), uuidProp("A tools_select decision, if any.")},
                    {QStringLiteral("preconditions"),
                     QJsonObject{{QStringLiteral("type"), QStringLiteral("array")},
                                 {QStringLiteral("description"),
                                  QStringLiteral("What must hold before the step.")}}},
                    {QStringLiteral("safety_level"),
                     prop("string", "How risky the step is (e.g. auto_ok, needs_confirm).")},
                    {QStringLiteral("metadata"), prop("object", "Anything else.")}}
            + writes + scope,
        {QStringLiteral("run_id"), QStringLiteral("step_index"), QStringLiteral("tool_name")});
    t.run = passThrough(QStringLiteral("/v1/memory/replay/step/before"), true);
    tools << t;

    t = McpTool();
    t.name = QStringLiteral("replay_step_after");
    t.title = QStringLiteral("Record a step (after)");
    t.description = QStringLiteral(
        "Record how a step of a replay run ended: `status` (success, failed, ...), the output "
        "signature, postconditions, artifact references and any error or repair. Use the same "
        "run_id and step_index as replay_step_before.");
    t.inputSchema = objectSchema(
        runId
            + Props{{QStringLiteral("step_index"), prop("integer", "Position of the step (1..).")},
                    {QStringLiteral("status"),
                     enumProp(ReplayVocabulary::stepStatuses(), "How the step ended.")},
                    {QStringLiteral("output_signature"), prop("object", "Shape of the output.")},
                    {QStringLiteral("artifact_refs"), stringList("References to artifacts.")},
                    {QStringLiteral("error"), prop("string", "The error, when it failed.")},
                    {QStringLiteral("repair_note"), prop("string", "What was repaired.")},
                    {QStringLiteral("metadata"), prop("object", "Anything else.")}}
            + writes + scope,
        {QStringLiteral("run_id"), QStringLiteral("status")});
    t.run = passThrough(QStringLiteral("/v1/memory/replay/step/after"), true);
    tools << t;

    t = McpTool();
    t.name = QStringLiteral("replay_run_end");
    t.title = QStringLiteral("End a replay run");
    t.description = QStringLiteral(
        "Close a replay run with its final `status` (success, failed, partial, ...) and a short "
        "`summary` of what happened; metrics and success criteria are optional.");
    t.inputSchema = objectSchema(
        runId
            + Props{{QStringLiteral("status"),
                     enumProp(ReplayVocabulary::runEndStatuses(), "How the run ended.")},
                    {QStringLiteral("summary"), prop("string", "What happened, briefly.")},
                    {QStringLiteral("metrics"), prop("object", "Numbers about the run.")},
                    {QStringLiteral("success_criteria"), prop("object", "What success meant.")},
                    {QStringLiteral("metadata"), prop("object", "Anything else.")}}
            + writes + scope,
        {QStringLiteral("run_id"), QStringLiteral("status")});
    t.run = passThrough(QStringLiteral("/v1/memory/replay/run/end"), true);
    tools << t;

    t = McpTool();
    t.name = QStringLiteral("replay_run_get");
    t.title = QStringLiteral("Read a replay run");
    t.description = QStringLiteral(
        "Read a recorded replay run: its goal, status and summary and, with include_steps, "
        "every step with its tool, input, outcome and artifacts. Use it to repeat or review an "
        "earlier multi-step task.");
    t.inputSchema = objectSchema(
        runId
            + Props{{QStringLiteral("include_steps"), prop("boolean", "Include the steps.")},
                    {QStringLiteral("include_artifacts"),
                     prop("boolean", "Include the steps' artifacts.")}}
            + consumer + scope,
        {QStringLiteral("run_id")});
    t.readOnly = true;
    t.idempotent = true;
    t.run = passThrough(QStringLiteral("/v1/memory/replay/runs/get"), false);
    tools << t;

    const Props actor{{QStringLiteral("actor"),
                       prop("string", "Who acts, for the audit log; defaults to the caller.")}};
    const Props automationRunId{
        {QStringLiteral("run_id"),
         uuidProp("The automation run id (run.run_id of automation_run).")}};
    t = McpTool();
    t.name = QStringLiteral("automation_run");
    t.title = QStringLiteral("Run an automation");
    t.description = QStringLiteral(
        "Start a run of a saved automation (a versioned graph of playbook, approval, condition "
        "and artifact-gate steps run one after another) by its `automation_id`, with the "
        "`params` its steps bind as $params.<name>. The call returns once the run pauses, waits "
        "for an executor or ends: `run.status_summary` says which (e.g. paused_for_approval, "
        "succeeded, failed) and `run.run_id` is the id automation_get and automation_resume "
        "take. A shadow version runs only with options.execution_mode shadow. Only run an "
        "automation the user asked for: its steps may change real systems.");
    t.inputSchema = objectSchema(
        Props{
            {QStringLiteral("automation_id"), prop("string", "The automation to run.")},
            {QStringLiteral("version"),
             prop("integer", "The version to run; defaults to the latest.")},
            {QStringLiteral("params"), prop("object", "Values the steps bind as $params.<name>.")},
            {QStringLiteral("options"),
             QJsonObject{
                 {QStringLiteral("type"), QStringLiteral("object")},
                 {QStringLiteral("properties"),
                  QJsonObject{{QStringLiteral("execution_mode"),
                               enumProp({QStringLiteral("default"), QStringLiteral("shadow")},
                                        "shadow runs a shadow version as a dry run.")},
                              {QStringLiteral("stop_on_failure"),
                               prop("boolean", "Stop at the first failed step (default "
                                               "true).")}}},
                 {QStringLiteral("description"), QStringLiteral("How to run it.")}}}}
            + actor + scope,
        {QStringLiteral("automation_id")});
    t.run = automationRun(QStringLiteral("/v1/automations/run"));
    tools << t;

    t = McpTool();
    t.name = QStringLiteral("automation_get");
    t.title = QStringLiteral("Read an automation run");
    t.description = QStringLiteral(
        "Read an automation run by its `run_id`: where it stands (`run.lifecycle_state` queued, "
        "running, paused, compensating or terminal; `run.status_summary`; the pause reason or "
        "terminal outcome and root cause), every step with its state and output, node counts, "
        "the reviewer and any compensation. Use it to follow a run started with "
        "automation_run, e.g. to see whether it still waits for an approval or has finished.");
    t.inputSchema
        = objectSchema(automationRunId
                           + Props{{QStringLiteral("include_nodes"),
                                    prop("boolean", "Include every step (default true).")}}
                           + scope,
                       {QStringLiteral("run_id")});
    t.readOnly = true;
    t.idempotent = true;
    t.run = automationRun(QStringLiteral("/v1/automations/runs/get"));
    tools << t;

    t = McpTool();
    t.name = QStringLiteral("automation_resume");
    t.title = QStringLiteral("Resume an automation run");
    t.description = QStringLiteral(
        "Resume a paused automation run by its `run_id`: for a run paused for approval this is "
        "the approval, and the run goes on with the next steps until it pauses again, waits or "
        "ends (the answer is the run as automation_get returns it). A run paused for repair "
        "resumes only once a newer version of its playbook was approved. Resume only when the "
        "user approved; say why in `note`, which is kept in the run's audit trail.");
    t.inputSchema = objectSchema(
        automationRunId
            + Props{{QStringLiteral("note"),
                     prop("string", "Why the run may go on (e.g. who approved it).")}}
            + actor + scope,
        {QStringLiteral("run_id")});
    t.run = automationRun(QStringLiteral("/v1/automations/runs/resume"));
    tools << t;

    t = McpTool();
    t.name = QStringLiteral("playbook_dispatch");
    t.title = QStringLiteral("Claim playbook work");
    t.description = QStringLiteral(
        "As an executor, claim the oldest unclaimed strict or guided playbook run (of "
        "`playbook_id`, or exactly `run_id`) and get its steps with their bound inputs "
        "(`steps[].tool_name`, `tool_input`, `argv`, `preconditions`). Execute the steps "
        "yourself, report each with replay_step_after (`run.run_id`, step_index) and close the "
        "run with replay_run_end; an automation waiting on that run then goes on. "
        "`dispatch.decision` is no_pending_work when there is nothing to claim.");
    t.inputSchema = objectSchema(
        Props{{QStringLiteral("executor_id"),
               prop("string", "Your stable executor name; the claim records it.")},
              {QStringLiteral("playbook_id"), uuidProp("Claim only runs of this playbook.")},
              {QStringLiteral("run_id"), uuidProp("Claim exactly this replay run.")}}
            + actor + scope,
        {QStringLiteral("executor_id")});
    t.run = passThrough(QStringLiteral("/v1/memory/replay/playbooks/dispatch"), false);
    tools << t;
    return tools;
}

/// The caller's scope for a bare id: the arguments' tenant and scope, else the defaults.
Result<CallScope> scopeFor(const QJsonObject &args, const McpCall &call, MemoryService *service)
{
    return resolveCallScope(args.value(QStringLiteral("tenant_id")).toString().trimmed(),
                            args.value(QStringLiteral("scope")).toString().trimmed(), call.meta,
                            service->config());
}

} // namespace

QJsonObject McpTool::definition() const
{
    return {{QStringLiteral("name"), name},
            {QStringLiteral("title"), title},
            {QStringLiteral("description"), description},
            {QStringLiteral("inputSchema"), inputSchema},
            {QStringLiteral("annotations"),
             QJsonObject{{QStringLiteral("title"), title},
                         {QStringLiteral("readOnlyHint"), readOnly},
                         {QStringLiteral("destructiveHint"), destructive},
                         {QStringLiteral("idempotentHint"), idempotent},
                         {QStringLiteral("openWorldHint"), false}}}};
}

namespace McpTools {

const QVector<McpTool> &all()
{
    static const QVector<McpTool> tools = buildTools();
    return tools;
}

const McpTool *find(const QString &name)
{
    for (const McpTool &t : all()) {
        if (t.name == name)
            return &t;
    }
    return nullptr;
}

Result<QJsonObject> read(const QString &uriOrId, const QJsonObject &args, McpCall &call,
                         MemoryService *service)
{
    QJsonObject body;
    for (const char *key : {"consumer_agent_id", "consumer_team_id"}) {
        if (args.contains(QLatin1String(key)))
            body.insert(QLatin1String(key), args.value(QLatin1String(key)));
    }
    QStringList uris;
    if (uriOrId.startsWith(QLatin1String("memorygraph://"))) {
        const auto parsed = parseRecordUri(uriOrId);
        if (parsed && parsed->kind == QLatin1String("replay_run")) {
            body.insert(QStringLiteral("tenant_id"), parsed->tenantId);
            body.insert(QStringLiteral("scope"), parsed->scope);
            body.insert(QStringLiteral("run_id"), parsed->id);
            body.insert(QStringLiteral("include_steps"), true);
            auto run = call.invoke(QStringLiteral("/v1/memory/replay/runs/get"), body);
            if (run)
                run.value().remove(QStringLiteral("request_id"));
            return run;
        }
        uris << uriOrId;
    } else {
        // A bare id: a node of the caller's scope (its type makes the URI), else a commit,
        // decision or edge. resolve decides what the caller may see.
        auto scope = scopeFor(args, call, service);
        if (!scope)
            return scope.error();
        const CallScope &cs = scope.value();
        if (!isUuid(uriOrId))
            return Error::invalidField(QStringLiteral("id"), QStringLiteral("must be a UUID"));
        const QString id = uriOrId.toLower();
        if (auto detail = service->nodeDetail(cs.tenantId, cs.scope, id))
            uris << recordUri(cs.tenantId, cs.scope, detail.value().node.type, id);
        for (const char *kind : {"commit", "decision", "edge"})
            uris << recordUri(cs.tenantId, cs.scope, QLatin1String(kind), id);
    }
    body.insert(QStringLiteral("include_slots"),
                args.value(QStringLiteral("include_slots")).toBool(true));
    std::optional<Error> last;
    for (const QString &uri : std::as_const(uris)) {
        body.insert(QStringLiteral("uri"), uri);
        auto resolved = call.invoke(QStringLiteral("/v1/memory/resolve"), body);
        if (resolved) {
            resolved.value().remove(QStringLiteral("request_id"));
            return resolved;
        }
        last = resolved.error();
        if (resolved.error().status != 404)
            break;
    }
    return *last;
}

} // namespace McpTools
} // namespace MemoryGraph
