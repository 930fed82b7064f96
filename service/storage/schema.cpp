#include "service/storage/schema.h"

#include "service/storage/textindexqueue.h"

namespace MemoryGraph {

namespace {

/// A node's indexed text changed in an update (the triggers' WHEN).
constexpr char kTextChanged[] = "OLD.title IS NOT NEW.title OR OLD.text_summary IS NOT"
                                " NEW.text_summary OR OLD.slots IS NOT NEW.slots";

} // namespace

// Long on purpose: the schema's history as one table of data, read top to bottom.
const std::vector<Migration> &schemaMigrations()
{
    static const std::vector<Migration> steps = {
        {QStringLiteral("graph"),
         {
             // memory_lane defaults to 'shared' so rows that predate lanes stay visible
             // (spec §3.2); the write path always sets it explicitly (default private).
             QStringLiteral(
                 "CREATE TABLE nodes ("
                 " id TEXT PRIMARY KEY,"
                 " tenant_id TEXT NOT NULL, scope TEXT NOT NULL, client_id TEXT,"
                 " type TEXT NOT NULL, tier TEXT NOT NULL DEFAULT 'hot',"
                 " memory_lane TEXT NOT NULL DEFAULT 'shared',"
                 " producer_agent_id TEXT, owner_agent_id TEXT, owner_team_id TEXT,"
                 " title TEXT, text_summary TEXT, slots TEXT NOT NULL DEFAULT '{}',"
                 " raw_ref TEXT, evidence_ref TEXT,"
                 " embedding BLOB, embedding_status TEXT NOT NULL DEFAULT 'failed',"
                 " embedding_model TEXT, embedding_error TEXT,"
                 " salience REAL NOT NULL DEFAULT 0.5, importance REAL NOT NULL DEFAULT 0.5,"
                 " confidence REAL NOT NULL DEFAULT 0.5,"
                 " created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL,"
                 " last_activated INTEGER, commit_id TEXT NOT NULL)"),
             QStringLiteral(
                 "CREATE UNIQUE INDEX nodes_client_id ON nodes(tenant_id, scope, client_id)"
                 " WHERE client_id IS NOT NULL"),
             QStringLiteral(
                 "CREATE INDEX nodes_scope_updated ON nodes(tenant_id, scope, updated_at)"),
             QStringLiteral(
                 "CREATE TABLE edges ("
                 " id TEXT PRIMARY KEY,"
                 " tenant_id TEXT NOT NULL, scope TEXT NOT NULL, type TEXT NOT NULL,"
                 " src_id TEXT NOT NULL REFERENCES nodes(id) ON DELETE CASCADE,"
                 " dst_id TEXT NOT NULL REFERENCES nodes(id) ON DELETE CASCADE,"
                 " weight REAL NOT NULL DEFAULT 0.5, confidence REAL NOT NULL DEFAULT 0.5,"
                 " decay_rate REAL NOT NULL DEFAULT 0.01, commit_id TEXT NOT NULL,"
                 " created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL,"
                 " UNIQUE(tenant_id, scope, type, src_id, dst_id))"),
             QStringLiteral("CREATE INDEX edges_src ON edges(src_id)"),
             QStringLiteral("CREATE INDEX edges_dst ON edges(dst_id)"),
             QStringLiteral(
                 "CREATE TABLE commits ("
                 " id TEXT PRIMARY KEY,"
                 " tenant_id TEXT NOT NULL, scope TEXT NOT NULL, seq INTEGER NOT NULL,"
                 " parent_id TEXT, parent_hash TEXT NOT NULL, input_sha256 TEXT NOT NULL,"
                 " diff_sha256 TEXT NOT NULL, diff TEXT NOT NULL, actor TEXT NOT NULL,"
                 " kind TEXT NOT NULL, request_key TEXT, commit_hash TEXT NOT NULL UNIQUE,"
                 " created_at INTEGER NOT NULL, UNIQUE(tenant_id, scope, seq))"),
             QStringLiteral(
                 "CREATE INDEX commits_request_key ON commits(tenant_id, scope, request_key)"),
         }},
        {QStringLiteral("vectors"),
         {
             // vector_label: the node's stable integer key in the hnswlib index of its scope.
             // embedding_version: a store-wide counter bumped on every embedding change, so an
             // index file's watermark tells which vectors it already holds.
             QStringLiteral("ALTER TABLE nodes ADD COLUMN vector_label INTEGER"),
             QStringLiteral(
                 "ALTER TABLE nodes ADD COLUMN embedding_version INTEGER NOT NULL DEFAULT 0"),
             QStringLiteral(
                 "ALTER TABLE nodes ADD COLUMN embedding_attempts INTEGER NOT NULL DEFAULT 0"),
             QStringLiteral("UPDATE nodes SET vector_label = rowid"),
             QStringLiteral("CREATE UNIQUE INDEX nodes_vector_label ON nodes(vector_label)"),
             QStringLiteral("CREATE INDEX nodes_embedding_version ON nodes(tenant_id, scope, "
                            "embedding_version)"),
             QStringLiteral("CREATE INDEX nodes_pending ON nodes(embedding_status) WHERE "
                            "embedding_status = 'pending'"),
             QStringLiteral(
                 "CREATE TABLE recall_audit ("
                 " id INTEGER PRIMARY KEY, tenant_id TEXT NOT NULL, scope TEXT NOT NULL,"
                 " endpoint TEXT NOT NULL, consumer_agent_id TEXT, consumer_team_id TEXT,"
                 " query_sha256 TEXT NOT NULL, seed_count INTEGER NOT NULL,"
                 " node_count INTEGER NOT NULL, edge_count INTEGER NOT NULL,"
                 " created_at INTEGER NOT NULL)"),
         }},
        {QStringLiteral("rules_and_decisions"),
         {
             // A rule's state and feedback statistics; the definition itself lives in the
             // rule node's slots. New rules start in shadow: evaluated, never enforced.
             QStringLiteral("CREATE TABLE rule_defs ("
                            " rule_node_id TEXT PRIMARY KEY REFERENCES nodes(id) ON DELETE CASCADE,"
                            " tenant_id TEXT NOT NULL, scope TEXT NOT NULL,"
                            " state TEXT NOT NULL DEFAULT 'shadow',"
                            " positive_count INTEGER NOT NULL DEFAULT 0,"
                            " negative_count INTEGER NOT NULL DEFAULT 0,"
                            " last_matched_at INTEGER, state_commit_id TEXT,"
                            " created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL)"),
             QStringLiteral(
                 "CREATE INDEX rule_defs_scope ON rule_defs(tenant_id, scope, state, updated_at)"),
             QStringLiteral("CREATE TABLE decisions ("
                            " id TEXT PRIMARY KEY, tenant_id TEXT NOT NULL, scope TEXT NOT NULL,"
                            " decision_kind TEXT NOT NULL, run_id TEXT, selected_tool TEXT,"
                            " candidates TEXT NOT NULL, context_sha256 TEXT NOT NULL,"
                            " policy_sha256 TEXT NOT NULL, source_rule_ids TEXT NOT NULL,"
                            " metadata TEXT NOT NULL, commit_id TEXT, created_at INTEGER NOT NULL,"
                            " seq INTEGER NOT NULL)"),
             QStringLiteral(
                 "CREATE INDEX decisions_run ON decisions(tenant_id, scope, run_id, seq)"),
             QStringLiteral("CREATE INDEX decisions_match ON decisions(tenant_id, scope, "
                            "selected_tool, context_sha256, seq)"),
             QStringLiteral("CREATE INDEX decisions_recent ON decisions(tenant_id, scope, seq)"),
             QStringLiteral("CREATE TABLE rule_feedback ("
                            " id TEXT PRIMARY KEY, tenant_id TEXT NOT NULL, scope TEXT NOT NULL,"
                            " rule_node_id TEXT, run_id TEXT, outcome TEXT NOT NULL, note TEXT,"
                            " source TEXT NOT NULL, decision_id TEXT, commit_id TEXT,"
                            " created_at INTEGER NOT NULL, seq INTEGER NOT NULL)"),
             QStringLiteral(
                 "CREATE INDEX rule_feedback_run ON rule_feedback(tenant_id, scope, run_id, seq)"),
             QStringLiteral("CREATE INDEX rule_feedback_decision ON rule_feedback(decision_id)"),
             QStringLiteral("CREATE INDEX rule_feedback_rule ON rule_feedback(rule_node_id)"),
         }},
        {QStringLiteral("vector_version_index"),
         {
             // MAX(embedding_version) over the whole table on every vector change must come
             // from an index, not from reading rows (the column sits after the vector blob).
             QStringLiteral("CREATE INDEX nodes_embedding_version_all ON nodes(embedding_version)"),
         }},
        {QStringLiteral("vector_catch_up_index"),
         {
             // Catching an index up lists (version, label) of the changed rows first and reads
             // vectors only for rows it has not mirrored yet: covering index, no row reads.
             QStringLiteral("DROP INDEX nodes_embedding_version"),
             QStringLiteral("CREATE INDEX nodes_embedding_version"
                            " ON nodes(tenant_id, scope, embedding_version, vector_label)"),
         }},
        {QStringLiteral("store_counters"),
         {
             // Vector labels and embedding versions only ever go up, even when the node holding
             // the highest one is forgotten: a reused label or version would let a saved index
             // keep a stale vector or skip a change.
             QStringLiteral(
                 "CREATE TABLE store_counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL)"),
             QStringLiteral(
                 "INSERT INTO store_counters (name, value) VALUES"
                 " ('vector_label', (SELECT COALESCE(MAX(vector_label), 0) FROM nodes)),"
                 " ('embedding_version', (SELECT COALESCE(MAX(embedding_version), 0) FROM nodes))"),
         }},
        {QStringLiteral("row_counts"),
         {
             // /health reports store totals on every call: triggers keep them in the same
             // transaction as the rows, so a call reads four rows instead of counting tables.
             // known_scopes: every (tenant, scope) that ever held a node or a commit.
             QStringLiteral(
                 "CREATE TABLE row_counts (name TEXT PRIMARY KEY, value INTEGER NOT NULL)"
                 " WITHOUT ROWID"),
             QStringLiteral(
                 "CREATE TABLE known_scopes (tenant_id TEXT NOT NULL, scope TEXT NOT NULL,"
                 " PRIMARY KEY (tenant_id, scope)) WITHOUT ROWID"),
             QStringLiteral(
                 "INSERT INTO known_scopes (tenant_id, scope)"
                 " SELECT tenant_id, scope FROM commits UNION SELECT tenant_id, scope FROM nodes"),
             QStringLiteral("INSERT INTO row_counts (name, value) VALUES"
                            " ('nodes', (SELECT COUNT(*) FROM nodes)),"
                            " ('edges', (SELECT COUNT(*) FROM edges)),"
                            " ('commits', (SELECT COUNT(*) FROM commits)),"
                            " ('scopes', (SELECT COUNT(*) FROM known_scopes))"),
             // An upsert that updates fires no INSERT trigger; cascaded deletes fire DELETE ones.
             QStringLiteral(
                 "CREATE TRIGGER nodes_counted AFTER INSERT ON nodes BEGIN"
                 " UPDATE row_counts SET value = value + 1 WHERE name = 'nodes';"
                 " INSERT INTO known_scopes (tenant_id, scope) SELECT NEW.tenant_id, NEW.scope"
                 "  WHERE NOT EXISTS (SELECT 1 FROM known_scopes"
                 "   WHERE tenant_id = NEW.tenant_id AND scope = NEW.scope);"
                 " END"),
             QStringLiteral("CREATE TRIGGER nodes_uncounted AFTER DELETE ON nodes BEGIN"
                            " UPDATE row_counts SET value = value - 1 WHERE name = 'nodes'; END"),
             QStringLiteral("CREATE TRIGGER edges_counted AFTER INSERT ON edges BEGIN"
                            " UPDATE row_counts SET value = value + 1 WHERE name = 'edges'; END"),
             QStringLiteral("CREATE TRIGGER edges_uncounted AFTER DELETE ON edges BEGIN"
                            " UPDATE row_counts SET value = value - 1 WHERE name = 'edges'; END"),
             QStringLiteral(
                 "CREATE TRIGGER commits_counted AFTER INSERT ON commits BEGIN"
                 " UPDATE row_counts SET value = value + 1 WHERE name = 'commits';"
                 " INSERT INTO known_scopes (tenant_id, scope) SELECT NEW.tenant_id, NEW.scope"
                 "  WHERE NOT EXISTS (SELECT 1 FROM known_scopes"
                 "   WHERE tenant_id = NEW.tenant_id AND scope = NEW.scope);"
                 " END"),
             QStringLiteral("CREATE TRIGGER commits_uncounted AFTER DELETE ON commits BEGIN"
                            " UPDATE row_counts SET value = value - 1 WHERE name = 'commits'; END"),
             QStringLiteral("CREATE TRIGGER known_scopes_counted AFTER INSERT ON known_scopes BEGIN"
                            " UPDATE row_counts SET value = value + 1 WHERE name = 'scopes'; END"),
         }},
        {QStringLiteral("lexical_index"),
         {
             // The lexical recall channel: BM25 over title, summary and the slots' text, kept
             // by triggers in the transaction that changes the node (write, edit, forget,
             // consolidation alike). scope_key is one token per (tenant, scope), the wall a
             // MATCH carries (LexicalIndex::scopeKey builds the same).
             QStringLiteral("CREATE VIRTUAL TABLE node_text USING fts5(scope_key, title, summary,"
                            " slots, tokenize = 'porter unicode61 remove_diacritics 2')"),
             QStringLiteral("CREATE TRIGGER node_text_added AFTER INSERT ON nodes BEGIN"
                            " INSERT INTO node_text (rowid, scope_key, title, summary, slots)"
                            " VALUES (%1); END")
                 .arg(TextIndexQueue::wordsRow(QStringLiteral("NEW"))),
             QStringLiteral("CREATE TRIGGER node_text_changed AFTER UPDATE OF title, text_summary,"
                            " slots ON nodes BEGIN DELETE FROM node_text WHERE rowid = OLD.rowid;"
                            " INSERT INTO node_text (rowid, scope_key, title, summary, slots)"
                            " VALUES (%1); END")
                 .arg(TextIndexQueue::wordsRow(QStringLiteral("NEW"))),
             QStringLiteral("CREATE TRIGGER node_text_removed AFTER DELETE ON nodes BEGIN"
                            " DELETE FROM node_text WHERE rowid = OLD.rowid; END"),
             QStringLiteral("INSERT INTO node_text (rowid, scope_key, title, summary, slots)"
                            " SELECT %1 FROM nodes")
                 .arg(TextIndexQueue::wordsRow(QStringLiteral("nodes"))),
         }},
        {QStringLiteral("node_occurred_at"),
         {
             // When a node's content happened (a meeting, an incident), as the writer says;
             // recall matches dates in a question against it.
             QStringLiteral("ALTER TABLE nodes ADD COLUMN occurred_at INTEGER"),
             QStringLiteral("CREATE INDEX nodes_occurred_at ON nodes(tenant_id, scope, occurred_at)"
                            " WHERE occurred_at IS NOT NULL"),
         }},
        {QStringLiteral("automations"),
         {
             // Automations (reference §8): a definition row per (tenant, scope, automation_id)
             // mirrors its latest version; versions keep every graph. Runs and their nodes are
             // the durable state machine a restart resumes from. JSON columns keep `_json`
             // names because runs/get returns the rows as they are (reference §8.3).
             QStringLiteral(
                 "CREATE TABLE automation_defs ("
                 " tenant_id TEXT NOT NULL, scope TEXT NOT NULL, automation_id TEXT NOT NULL,"
                 " name TEXT NOT NULL, status TEXT NOT NULL, latest_version INTEGER NOT NULL,"
                 " input_contract_json TEXT NOT NULL DEFAULT '{}',"
                 " output_contract_json TEXT NOT NULL DEFAULT '{}',"
                 " metadata_json TEXT NOT NULL DEFAULT '{}', actor TEXT,"
                 " created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL,"
                 " PRIMARY KEY (tenant_id, scope, automation_id))"),
             QStringLiteral(
                 "CREATE TABLE automation_versions ("
                 " tenant_id TEXT NOT NULL, scope TEXT NOT NULL, automation_id TEXT NOT NULL,"
                 " version INTEGER NOT NULL, name TEXT NOT NULL, status TEXT NOT NULL,"
                 " graph_json TEXT NOT NULL, compile_summary_json TEXT NOT NULL,"
                 " input_contract_json TEXT NOT NULL DEFAULT '{}',"
                 " output_contract_json TEXT NOT NULL DEFAULT '{}',"
                 " metadata_json TEXT NOT NULL DEFAULT '{}', actor TEXT, note TEXT,"
                 " promoted_from_version INTEGER, commit_id TEXT, created_at INTEGER NOT NULL,"
                 " PRIMARY KEY (tenant_id, scope, automation_id, version))"),
             QStringLiteral(
                 "CREATE TABLE automation_runs ("
                 " run_id TEXT PRIMARY KEY, tenant_id TEXT NOT NULL, scope TEXT NOT NULL,"
                 " automation_id TEXT NOT NULL, automation_version INTEGER NOT NULL,"
                 " requested_by TEXT, lifecycle_state TEXT NOT NULL, pause_reason TEXT,"
                 " terminal_outcome TEXT, status_summary TEXT NOT NULL,"
                 " root_cause_code TEXT, root_cause_node_id TEXT, root_cause_message TEXT,"
                 " params_json TEXT NOT NULL DEFAULT '{}', context_json TEXT NOT NULL DEFAULT '{}',"
                 " summary_json TEXT NOT NULL DEFAULT '{}',"
                 " output_snapshot_json TEXT NOT NULL DEFAULT '{}',"
                 " compensation_attempted INTEGER NOT NULL DEFAULT 0, compensation_status TEXT,"
                 " compensation_summary_json TEXT NOT NULL DEFAULT '{}',"
                 " execution_mode TEXT NOT NULL, ever_paused INTEGER NOT NULL DEFAULT 0,"
                 " started_at INTEGER, paused_at INTEGER, ended_at INTEGER,"
                 " created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL)"),
             QStringLiteral("CREATE INDEX automation_runs_scope"
                            " ON automation_runs(tenant_id, scope, created_at)"),
             QStringLiteral(
                 "CREATE INDEX automation_runs_state ON automation_runs(lifecycle_state)"),
             QStringLiteral(
                 "CREATE TABLE automation_run_nodes ("
                 " run_id TEXT NOT NULL REFERENCES automation_runs(run_id) ON DELETE CASCADE,"
                 " node_id TEXT NOT NULL, topo_index INTEGER NOT NULL,"
                 " attempt INTEGER NOT NULL DEFAULT 0, node_kind TEXT NOT NULL,"
                 " lifecycle_state TEXT NOT NULL, pause_reason TEXT, terminal_outcome TEXT,"
                 " status_summary TEXT NOT NULL, depends_on_json TEXT NOT NULL DEFAULT '[]',"
                 " blocking_node_ids_json TEXT NOT NULL DEFAULT '[]', error_code TEXT,"
                 " error_message TEXT, playbook_id TEXT, playbook_version INTEGER,"
                 " playbook_run_id TEXT, awaiting_replay INTEGER NOT NULL DEFAULT 0,"
                 " approval_id TEXT, input_snapshot_json TEXT NOT NULL DEFAULT '{}',"
                 " output_snapshot_json TEXT NOT NULL DEFAULT '{}',"
                 " artifact_refs_json TEXT NOT NULL DEFAULT '[]', compensation_mode TEXT,"
                 " compensation_ref_json TEXT NOT NULL DEFAULT '{}', compensation_run_id TEXT,"
                 " compensation_status TEXT, started_at INTEGER, paused_at INTEGER,"
                 " ended_at INTEGER, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL,"
                 " PRIMARY KEY (run_id, node_id))"),
             QStringLiteral("CREATE INDEX automation_run_nodes_replay"
                            " ON automation_run_nodes(playbook_run_id) WHERE awaiting_replay = 1"),
             // Shadow reviews, reviewer and compensation assignments, and the compensation
             // actions operators record: append-only, the latest entry of a kind wins.
             QStringLiteral("CREATE TABLE automation_reviews ("
                            " id TEXT PRIMARY KEY, tenant_id TEXT NOT NULL, scope TEXT NOT NULL,"
                            " automation_id TEXT NOT NULL, run_id TEXT, version INTEGER,"
                            " kind TEXT NOT NULL, verdict TEXT, reviewer TEXT, owner TEXT,"
                            " escalation_owner TEXT, sla_target_at INTEGER, note TEXT, actor TEXT,"
                            " commit_id TEXT, created_at INTEGER NOT NULL, seq INTEGER NOT NULL)"),
             QStringLiteral("CREATE INDEX automation_reviews_subject ON automation_reviews("
                            "tenant_id, scope, automation_id, kind, seq)"),
             QStringLiteral(
                 "CREATE INDEX automation_reviews_run ON automation_reviews(run_id, seq)"),
             QStringLiteral(
                 "CREATE TABLE automation_compensation_actions ("
                 " id TEXT PRIMARY KEY, tenant_id TEXT NOT NULL, scope TEXT NOT NULL,"
                 " run_id TEXT NOT NULL, node_id TEXT, action TEXT NOT NULL, note TEXT,"
                 " external_ref TEXT, actor TEXT, commit_id TEXT, created_at INTEGER NOT NULL,"
                 " seq INTEGER NOT NULL)"),
             QStringLiteral("CREATE INDEX automation_compensation_actions_run"
                            " ON automation_compensation_actions(run_id, seq)"),
             QStringLiteral(
                 "CREATE TABLE automation_shadow_requests ("
                 " request_id TEXT PRIMARY KEY, tenant_id TEXT NOT NULL, scope TEXT NOT NULL,"
                 " automation_id TEXT NOT NULL, version INTEGER NOT NULL, status TEXT NOT NULL,"
                 " params_json TEXT NOT NULL DEFAULT '{}', run_id TEXT, error_code TEXT,"
                 " requested_by TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL)"),
             QStringLiteral("CREATE INDEX automation_shadow_requests_queue"
                            " ON automation_shadow_requests(tenant_id, scope, status, created_at)"),
         }},
        {QStringLiteral("node_vectors"),
         {
             // Vectors live beside their nodes, keyed by the node's stable label: a 6 KB blob
             // in the node row spilled every row onto overflow pages, so each read of a node's
             // other columns (recall reads dozens per request) walked that chain, and giving a
             // node its vector rewrote the whole row.
             QStringLiteral("CREATE TABLE node_vectors (label INTEGER PRIMARY KEY,"
                            " embedding BLOB NOT NULL)"),
             QStringLiteral(
                 "INSERT INTO node_vectors (label, embedding)"
                 " SELECT vector_label, embedding FROM nodes WHERE embedding IS NOT NULL"),
             QStringLiteral("ALTER TABLE nodes DROP COLUMN embedding"),
             QStringLiteral("CREATE TRIGGER node_vectors_removed AFTER DELETE ON nodes BEGIN"
                            " DELETE FROM node_vectors WHERE label = OLD.vector_label; END"),
         },
         // Dropping the column shrinks each row where it lies, one node a page.
         true},
        {QStringLiteral("nodes_salience_order"),
         {
             // The graph view's overview lists a scope's most salient nodes in batches; in
             // this order the index hands over a batch without sorting the scope.
             QStringLiteral("CREATE INDEX nodes_scope_salience"
                            " ON nodes(tenant_id, scope, salience DESC, updated_at DESC, id)"),
         }},
        {QStringLiteral("concept_index"),
         {
             // The concept recall channel: BM25 over the WordNet concepts of each node's words,
             // a table of its own (FTS5 normalises bm25 by the length of all columns, so concept
             // tokens beside the words would change the lexical ranking). Kept like node_text,
             // in the node's transaction; an edit that leaves the text alone skips the work.
             QStringLiteral("CREATE VIRTUAL TABLE node_concepts USING fts5(scope_key, concepts,"
                            " tokenize = 'ascii')"),
             QStringLiteral("CREATE TRIGGER node_concepts_added AFTER INSERT ON nodes BEGIN"
                            " INSERT INTO node_concepts (rowid, scope_key, concepts)"
                            " VALUES (%1); END")
                 .arg(TextIndexQueue::sensesRow(QStringLiteral("NEW"))),
             QStringLiteral("CREATE TRIGGER node_concepts_changed AFTER UPDATE OF title,"
                            " text_summary, slots ON nodes WHEN %2 BEGIN"
                            " DELETE FROM node_concepts WHERE rowid = OLD.rowid;"
                            " INSERT INTO node_concepts (rowid, scope_key, concepts)"
                            " VALUES (%1); END")
                 .arg(TextIndexQueue::sensesRow(QStringLiteral("NEW")),
                      QLatin1String(kTextChanged)),
             QStringLiteral("CREATE TRIGGER node_concepts_removed AFTER DELETE ON nodes BEGIN"
                            " DELETE FROM node_concepts WHERE rowid = OLD.rowid; END"),
             QStringLiteral("INSERT INTO node_concepts (rowid, scope_key, concepts)"
                            " SELECT %1 FROM nodes")
                 .arg(TextIndexQueue::sensesRow(QStringLiteral("nodes"))),
         }},
        {QStringLiteral("text_index_queue"),
         {
             // Both text indexes are filled at the end of the write transaction from a queue
             // of changed nodes (TextIndexQueue): indexing in the triggers made FTS5 write a
             // segment per node. Removal stays in the triggers. IF EXISTS: a test store may
             // lack the older triggers. Edits re-index only when the text changed.
             QStringLiteral("CREATE TABLE text_index_queue (node_rowid INTEGER PRIMARY KEY)"),
             QStringLiteral("DROP TRIGGER IF EXISTS node_text_added"),
             QStringLiteral("DROP TRIGGER IF EXISTS node_text_changed"),
             QStringLiteral("DROP TRIGGER IF EXISTS node_concepts_added"),
             QStringLiteral("DROP TRIGGER IF EXISTS node_concepts_changed"),
             QStringLiteral("CREATE TRIGGER node_text_queued AFTER INSERT ON nodes BEGIN"
                            " INSERT OR IGNORE INTO text_index_queue (node_rowid)"
                            " VALUES (NEW.rowid); END"),
             QStringLiteral("CREATE TRIGGER node_text_requeued AFTER UPDATE OF title,"
                            " text_summary, slots ON nodes WHEN %1 BEGIN"
                            " DELETE FROM node_text WHERE rowid = OLD.rowid;"
                            " DELETE FROM node_concepts WHERE rowid = OLD.rowid;"
                            " INSERT OR IGNORE INTO text_index_queue (node_rowid)"
                            " VALUES (NEW.rowid); END")
                 .arg(QLatin1String(kTextChanged)),
             QStringLiteral("CREATE TRIGGER node_text_unqueued AFTER DELETE ON nodes BEGIN"
                            " DELETE FROM text_index_queue WHERE node_rowid = OLD.rowid; END"),
         }},
    };
    return steps;
}

} // namespace MemoryGraph
