// memorygraph_bench: see README.md in this folder for what is measured and how to run it.

#include "service/index/vectorindex.h"
#include "service/memoryservice.h"
#include "tests/benchmark/benchoptions.h"
#include "tests/benchmark/clustereddata.h"
#include "tests/benchmark/httpclient.h"
#include "tests/benchmark/inprocessserver.h"
#include "tests/benchmark/procstatus.h"
#include "tests/benchmark/stats.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QHostAddress>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QSaveFile>
#include <QSysInfo>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QThread>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <functional>
#include <memory>
#include <mutex>
#include <numeric>
#include <vector>

using namespace MemoryGraph;
using namespace MemoryGraph::Bench;

namespace {

using Clock = std::chrono::steady_clock;

constexpr int kDim = 1536;
constexpr qint64 kMiB = 1024 * 1024;
const QByteArray kWritePath = QByteArrayLiteral("/v1/memory/write");
const QByteArray kRecallPath = QByteArrayLiteral("/v1/memory/recall");
const QByteArray kRecallTextPath = QByteArrayLiteral("/v1/memory/recall_text");
const QByteArray kScope = QByteArrayLiteral("bench");

// Targets (from the performance brief).
constexpr double kTargetSmallBatchP95Ms = 20.0;
constexpr double kTargetRecallP95Ms = 10.0;
constexpr double kTargetAnnRecall = 0.95;
constexpr double kTargetColdStartMs = 2000.0;
constexpr double kTargetRssFactor = 1.3;
constexpr double kTargetFirstRecallAfterLoadMs = 100.0;
constexpr double kTargetRecallDuringWriteP95Ms = 50.0;
constexpr double kTargetWriteNodesPerSecond = 3300.0; // batches of 100, up to N = 10000
constexpr qint64 kTargetRssSlack = 200 * kMiB;

double msSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

void say(const QString &text)
{
    std::fputs(qUtf8Printable(text + QLatin1Char('\n')), stdout);
    std::fflush(stdout);
}

QString mib(qint64 bytes)
{
    return bytes < 0 ? QStringLiteral("n/a")
                     : QStringLiteral("%1 MiB").arg(double(bytes) / double(kMiB), 0, 'f', 1);
}

QString passText(bool met)
{
    return met ? QStringLiteral("MET") : QStringLiteral("MISSED");
}

/// One write body: nodes first .. first+count-1 of the data set.
QByteArray writeBody(const ClusteredData &data, qint64 first, int count,
                     std::vector<float> &scratch)
{
    QByteArray body;
    body.reserve(count * (kDim * 13 + 200) + 200);
    body += "{\"scope\":\"" + kScope + "\",\"memory_lane\":\"shared\",\"input_text\":\"bench batch "
            + QByteArray::number(first) + "+" + QByteArray::number(count) + "\",\"nodes\":[";
    scratch.resize(size_t(kDim));
    for (int k = 0; k < count; ++k) {
        const qint64 i = first + k;
        data.node(i, scratch.data());
        if (k > 0)
            body += ',';
        body += "{\"client_id\":\"bench-" + QByteArray::number(i)
                + "\",\"type\":\"event\",\"memory_lane\":\"shared\",\"text_summary\":\"bench event "
                + QByteArray::number(i) + " cluster " + QByteArray::number(data.clusterOf(i))
                + "\",\"embedding\":";
        appendJsonFloats(body, scratch.data(), kDim);
        body += '}';
    }
    body += "]}";
    return body;
}

QByteArray recallBody(const float *query)
{
    QByteArray body;
    body.reserve(kDim * 13 + 64);
    body += "{\"scope\":\"" + kScope + "\",\"query_embedding\":";
    appendJsonFloats(body, query, kDim);
    body += '}';
    return body;
}

/// A question in words about a cluster: every memory holds "event" and "cluster", so the
/// lexical and concept channels rank the whole scope (their worst case), and the cluster's
/// number picks out its fifty.
QByteArray recallTextBody(int cluster)
{
    return "{\"scope\":\"" + kScope + "\",\"query_text\":\"which bench event is in cluster "
           + QByteArray::number(cluster) + "?\"}";
}

/// Of the first (at most) 10 seeds, how many come from the query's cluster (read back from
/// the "cluster <c>" tail of their text_summary). -1 seeds when the body is not a recall answer.
struct SeedCheck
{
    int seeds = -1;
    int sameCluster = 0;
};

SeedCheck checkSeeds(const QByteArray &body, int cluster)
{
    SeedCheck check;
    const QJsonDocument doc = QJsonDocument::fromJson(body);
    QJsonValue seedsValue = doc.object().value(QStringLiteral("seeds"));
    if (!seedsValue.isArray())
        seedsValue
            = doc.object().value(QStringLiteral("data")).toObject().value(QStringLiteral("seeds"));
    if (!seedsValue.isArray())
        return check;
    const QJsonArray seeds = seedsValue.toArray();
    check.seeds = 0;
    const QString wanted = QStringLiteral(" cluster %1").arg(cluster);
    for (qsizetype i = 0; i < seeds.size() && i < 10; ++i) {
        ++check.seeds;
        if (seeds.at(i)
                .toObject()
                .value(QStringLiteral("text_summary"))
                .toString()
                .endsWith(wanted))
            ++check.sameCluster;
    }
    return check;
}

QString shortError(const HttpClient::Response &r)
{
    if (r.status == 0)
        return r.error;
    return QStringLiteral("HTTP %1: %2").arg(r.status).arg(QString::fromUtf8(r.body.left(300)));
}

// ---------------------------------------------------------------------------------------------
// Writes

struct WriteRun
{
    std::vector<double> batchMs;
    double httpMs = 0.0; ///< sum of request latencies
    double wallMs = 0.0; ///< including generating the bodies (not the priming recall)
    qint64 nodes = 0;
    int errors = 0;
    QString firstError;
    bool stoppedByDeadline = false;
    double primeRecallMs = -1.0;

    QJsonObject toJson() const
    {
        QJsonObject o{{QStringLiteral("nodes"), nodes},
                      {QStringLiteral("batches"), int(batchMs.size())},
                      {QStringLiteral("http_ms_total"), httpMs},
                      {QStringLiteral("wall_ms"), wallMs},
                      {QStringLiteral("nodes_per_s_http"),
                       httpMs > 0 ? double(nodes) * 1000.0 / httpMs : 0.0},
                      {QStringLiteral("nodes_per_s_wall"),
                       wallMs > 0 ? double(nodes) * 1000.0 / wallMs : 0.0},
                      {QStringLiteral("batch_latency"), Summary::of(batchMs).toJson()},
                      {QStringLiteral("errors"), errors},
                      {QStringLiteral("stopped_by_deadline"), stoppedByDeadline}};
        if (!firstError.isEmpty())
            o.insert(QStringLiteral("first_error"), firstError);
        if (primeRecallMs >= 0)
            o.insert(QStringLiteral("prime_recall_ms"), primeRecallMs);
        // In send order, so stalls (e.g. periodic index saves) can be located.
        QJsonArray timeline;
        for (double ms : batchMs)
            timeline.append(std::round(ms * 100.0) / 100.0);
        o.insert(QStringLiteral("batch_ms_in_order"), timeline);
        return o;
    }
};

WriteRun writeNodes(HttpClient &client, const ClusteredData &data, qint64 first, qint64 total,
                    int batchSize, const BenchOptions &options, bool primeAfterFirst)
{
    WriteRun run;
    std::vector<float> scratch;
    const auto deadline = Clock::now() + std::chrono::seconds(options.maxPhaseSeconds);
    const auto wallStart = Clock::now();
    double primeMs = 0.0;
    const qint64 batches = (total + batchSize - 1) / batchSize;
    run.batchMs.reserve(size_t(batches));
    for (qint64 b = 0; b < batches; ++b) {
        if (Clock::now() > deadline) {
            run.stoppedByDeadline = true;
            break;
        }
        const qint64 from = first + b * batchSize;
        const int count = int(std::min<qint64>(batchSize, first + total - from));
        const QByteArray body = writeBody(data, from, count, scratch);
        const auto t0 = Clock::now();
        const HttpClient::Response r = client.post(kWritePath, body, options.timeoutMs);
        const double ms = msSince(t0);
        if (!r.ok()) {
            if (run.errors++ == 0)
                run.firstError = shortError(r);
            if (run.errors >= 10)
                break;
            continue;
        }
        run.batchMs.push_back(ms);
        run.httpMs += ms;
        run.nodes += count;
        if (b == 0 && primeAfterFirst) {
            // --prime: one recall during the load (older builds only brought a fresh scope's
            // index to life on its first recall).
            std::vector<float> q(static_cast<size_t>(kDim));
            data.node(first, q.data());
            const auto p0 = Clock::now();
            const HttpClient::Response pr
                = client.post(kRecallPath, recallBody(q.data()), options.timeoutMs);
            primeMs = msSince(p0);
            run.primeRecallMs = primeMs;
            if (!pr.ok() && run.errors++ == 0)
                run.firstError = QStringLiteral("priming recall: ") + shortError(pr);
        }
        if (batches >= 20 && (b + 1) % (batches / 10) == 0)
            say(QStringLiteral("    ... %1/%2 batches, %3 s")
                    .arg(b + 1)
                    .arg(batches)
                    .arg(msSince(wallStart) / 1000.0, 0, 'f', 1));
    }
    run.wallMs = msSince(wallStart) - primeMs;
    return run;
}

// ---------------------------------------------------------------------------------------------
// Recalls

struct RecallRun
{
    int clients = 0;
    std::vector<double> latencies;
    double wallMs = 0.0;
    int errors = 0;
    QString firstError;
    int checked = 0; ///< responses whose seeds were checked
    int checkedSeeds = 0;
    int sameClusterSeeds = 0;
    int emptySeedAnswers = 0;
    int connections = 0;
    bool stoppedByDeadline = false;

    double requestsPerSecond() const
    {
        return wallMs > 0 ? double(latencies.size()) * 1000.0 / wallMs : 0.0;
    }
    double purity() const
    {
        return checkedSeeds > 0 ? double(sameClusterSeeds) / checkedSeeds : 0.0;
    }

    QJsonObject toJson() const
    {
        QJsonObject o{{QStringLiteral("clients"), clients},
                      {QStringLiteral("latency"), Summary::of(latencies).toJson()},
                      {QStringLiteral("wall_ms"), wallMs},
                      {QStringLiteral("requests_per_s"), requestsPerSecond()},
                      {QStringLiteral("errors"), errors},
                      {QStringLiteral("checked_answers"), checked},
                      {QStringLiteral("seed_cluster_purity_top10"), purity()},
                      {QStringLiteral("answers_without_seeds"), emptySeedAnswers},
                      {QStringLiteral("tcp_connections"), connections},
                      {QStringLiteral("stopped_by_deadline"), stoppedByDeadline}};
        if (!firstError.isEmpty())
            o.insert(QStringLiteral("first_error"), firstError);
        return o;
    }
};

/// clients threads, each with its own keep-alive connection: warm-up, then all start the
/// measured part together.
enum class RecallBy { Vector, Text };

RecallRun recallClients(quint16 port, const ClusteredData &data, const BenchOptions &options,
                        int clients, std::uint64_t seedBase, RecallBy by = RecallBy::Vector)
{
    const QByteArray path = by == RecallBy::Text ? kRecallTextPath : kRecallPath;
    const auto bodyFor = [by](const std::vector<float> &q, int cluster) {
        return by == RecallBy::Text ? recallTextBody(cluster) : recallBody(q.data());
    };
    struct Shared
    {
        std::mutex mutex;
        std::condition_variable cv;
        int ready = 0;
        bool go = false;
    } shared;
    struct PerClient
    {
        std::vector<double> latencies;
        Clock::time_point end;
        int errors = 0;
        QString firstError;
        int checked = 0, checkedSeeds = 0, sameCluster = 0, empty = 0, connections = 0;
        bool stopped = false;
    };
    std::vector<PerClient> results(static_cast<size_t>(clients));
    const auto warmupDeadline
        = Clock::now() + std::chrono::seconds(std::max(1, options.recallSeconds / 4));
    // Set when the measured part starts (under the mutex, before the threads are released).
    Clock::time_point deadline;

    std::vector<std::unique_ptr<QThread>> threads;
    for (int t = 0; t < clients; ++t) {
        PerClient *mine = &results[size_t(t)];
        threads.emplace_back(QThread::create([&, mine, t] {
            HttpClient client(port);
            Rng rng(seedBase + std::uint64_t(t) * 7919);
            std::vector<float> q(static_cast<size_t>(kDim));
            for (int w = 0; w < options.warmup && Clock::now() < warmupDeadline; ++w) {
                const int cluster = data.query(rng, options.queryNoise, q.data());
                client.post(path, bodyFor(q, cluster), options.timeoutMs);
            }
            {
                std::unique_lock lock(shared.mutex);
                ++shared.ready;
                shared.cv.notify_all();
                shared.cv.wait(lock, [&] { return shared.go; });
            }
            mine->latencies.reserve(size_t(options.requests));
            for (int r = 0; r < options.requests; ++r) {
                if (Clock::now() > deadline) {
                    mine->stopped = true;
                    break;
                }
                const int cluster = data.query(rng, options.queryNoise, q.data());
                const QByteArray body = bodyFor(q, cluster);
                const auto t0 = Clock::now();
                const HttpClient::Response resp = client.post(path, body, options.timeoutMs);
                const double ms = msSince(t0);
                if (!resp.ok()) {
                    if (mine->errors++ == 0)
                        mine->firstError = shortError(resp);
                    continue;
                }
                mine->latencies.push_back(ms);
                if (r % 10 == 0) { // outside the timed part; every 10th to spare the CPU
                    const SeedCheck check = checkSeeds(resp.body, cluster);
                    ++mine->checked;
                    if (check.seeds <= 0)
                        ++mine->empty;
                    else {
                        mine->checkedSeeds += check.seeds;
                        mine->sameCluster += check.sameCluster;
                    }
                }
            }
            mine->end = Clock::now();
            mine->connections = client.connectionsOpened();
        }));
        threads.back()->setObjectName(QStringLiteral("bench-client-%1").arg(t));
        threads.back()->start();
    }

    Clock::time_point start;
    {
        std::unique_lock lock(shared.mutex);
        shared.cv.wait(lock, [&] { return shared.ready == clients; });
        start = Clock::now();
        deadline = start + std::chrono::seconds(options.recallSeconds);
        shared.go = true;
    }
    shared.cv.notify_all();
    for (auto &thread : threads)
        thread->wait();

    RecallRun run;
    run.clients = clients;
    Clock::time_point end = start;
    for (const PerClient &c : results) {
        run.latencies.insert(run.latencies.end(), c.latencies.begin(), c.latencies.end());
        end = std::max(end, c.end);
        if (c.errors > 0 && run.errors == 0)
            run.firstError = c.firstError;
        run.errors += c.errors;
        run.checked += c.checked;
        run.checkedSeeds += c.checkedSeeds;
        run.sameClusterSeeds += c.sameCluster;
        run.emptySeedAnswers += c.empty;
        run.connections += c.connections;
        run.stoppedByDeadline = run.stoppedByDeadline || c.stopped;
    }
    run.wallMs = std::chrono::duration<double, std::milli>(end - start).count();
    return run;
}

// ---------------------------------------------------------------------------------------------
// Cold start of the real executable

struct ColdRun
{
    double healthMs = -1.0;      ///< process start -> GET /health 200
    double firstRecallMs = -1.0; ///< process start -> first POST /v1/memory/recall 200
    double firstRecallLatencyMs = -1.0;
    double warmRecallMs = -1.0; ///< median of 5 recalls right after the first
    int recallAttempts = 0;
    ProcMemory memory;    ///< after the first recall
    double stopMs = -1.0; ///< SIGTERM -> exit
    int exitCode = -1;
    QString error;

    QJsonObject toJson() const
    {
        QJsonObject o{{QStringLiteral("health_ms"), healthMs},
                      {QStringLiteral("first_recall_ms"), firstRecallMs},
                      {QStringLiteral("first_recall_latency_ms"), firstRecallLatencyMs},
                      {QStringLiteral("warm_recall_ms_median"), warmRecallMs},
                      {QStringLiteral("recall_attempts"), recallAttempts},
                      {QStringLiteral("peak_rss_bytes"), memory.peakRss},
                      {QStringLiteral("rss_bytes"), memory.rss},
                      {QStringLiteral("stop_ms"), stopMs},
                      {QStringLiteral("exit_code"), exitCode}};
        if (!error.isEmpty())
            o.insert(QStringLiteral("error"), error);
        return o;
    }
};

quint16 freeLoopbackPort()
{
    QTcpServer probe;
    if (!probe.listen(QHostAddress(QHostAddress::LocalHost), 0))
        return 0;
    const quint16 port = probe.serverPort();
    probe.close();
    return port;
}

QString fileTail(const QString &path, int bytes)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    if (f.size() > bytes)
        f.seek(f.size() - bytes);
    return QString::fromUtf8(f.readAll()).trimmed();
}

ColdRun coldStart(const QString &appPath, const QString &dataDir, const QString &logDir,
                  int runIndex, const ClusteredData &data, const BenchOptions &options)
{
    ColdRun run;
    const quint16 port = freeLoopbackPort();
    if (port == 0) {
        run.error = QStringLiteral("no free loopback port");
        return run;
    }
    QProcess process;
    process.setProgram(appPath);
    process.setArguments({QStringLiteral("--headless"), QStringLiteral("--data-dir"), dataDir,
                          QStringLiteral("--port"), QString::number(port)});
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("EMBEDDING_PROVIDER"), QStringLiteral("none"));
    env.insert(QStringLiteral("MEMORY_AUTH_MODE"), QStringLiteral("off"));
    process.setProcessEnvironment(env);
    // The headless app logs every request to stderr: files, never a pipe nobody drains.
    const QString outLog = QDir(logDir).filePath(QStringLiteral("cold%1.stdout.log").arg(runIndex));
    const QString errLog = QDir(logDir).filePath(QStringLiteral("cold%1.stderr.log").arg(runIndex));
    process.setStandardOutputFile(outLog);
    process.setStandardErrorFile(errLog);
    process.setStandardInputFile(QProcess::nullDevice());

    const auto start = Clock::now();
    process.start();
    if (!process.waitForStarted(30000)) {
        run.error = QStringLiteral("cannot start %1: %2").arg(appPath, process.errorString());
        return run;
    }
    const auto deadline = start + std::chrono::seconds(std::min(options.maxPhaseSeconds, 600));
    auto died = [&process] {
        return process.waitForFinished(0) || process.state() == QProcess::NotRunning;
    };
    auto diedError = [&] {
        return QStringLiteral("memorygraph exited (code %1): %2")
            .arg(process.exitCode())
            .arg(fileTail(errLog, 600));
    };

    // 1. /health: connection refused until the server listens; poll every 5 ms.
    while (Clock::now() < deadline) {
        if (died()) {
            run.error = diedError();
            return run;
        }
        HttpClient client(port);
        const HttpClient::Response r = client.get("/health", 2000);
        if (r.status == 200) {
            run.healthMs = msSince(start);
            break;
        }
        QThread::msleep(5);
    }
    // 2. the first recall that answers 200 (the index loads from its file meanwhile).
    if (run.healthMs >= 0) {
        HttpClient client(port);
        Rng rng(options.seed ^ 0xC01DULL ^ std::uint64_t(runIndex));
        std::vector<float> q(static_cast<size_t>(kDim));
        data.query(rng, options.queryNoise, q.data());
        const QByteArray body = recallBody(q.data());
        while (Clock::now() < deadline) {
            if (died()) {
                run.error = diedError();
                return run;
            }
            ++run.recallAttempts;
            const auto t0 = Clock::now();
            const int left
                = int(std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now())
                          .count());
            const HttpClient::Response r = client.post(kRecallPath, body, std::max(100, left));
            if (r.status == 200) {
                run.firstRecallLatencyMs = msSince(t0);
                run.firstRecallMs = msSince(start);
                break;
            }
            if (run.error.isEmpty())
                run.error = QStringLiteral("recall attempt failed: ") + shortError(r);
            QThread::msleep(10);
        }
        if (run.firstRecallMs >= 0) {
            run.error.clear();
            // A few more, so the first recall's own cost can be told from the index load.
            std::vector<double> warm;
            for (int i = 0; i < 5 && Clock::now() < deadline; ++i) {
                data.query(rng, options.queryNoise, q.data());
                const auto t0 = Clock::now();
                const HttpClient::Response r
                    = client.post(kRecallPath, recallBody(q.data()), options.timeoutMs);
                if (r.ok())
                    warm.push_back(msSince(t0));
            }
            if (!warm.empty())
                run.warmRecallMs = Summary::of(warm).p50;
        }
    } else if (run.error.isEmpty()) {
        run.error = QStringLiteral("/health did not answer 200 in time");
    }
    run.memory = readProcMemory(process.processId());

    const auto stopStart = Clock::now();
    process.terminate();
    if (process.waitForFinished(120000)) {
        run.stopMs = msSince(stopStart);
        run.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    } else {
        process.kill();
        process.waitForFinished(10000);
        if (run.error.isEmpty())
            run.error = QStringLiteral("did not exit within 120 s of SIGTERM; killed");
    }
    return run;
}

// ---------------------------------------------------------------------------------------------
// ANN recall@10 on a standalone VectorIndex

struct AnnRun
{
    double generateMs = 0.0;
    double buildMs = 0.0;
    int defaultEf = 0; ///< VectorIndex's own default
    int ef = 0;        ///< ef of the reported figure (--ef, the service's)
    int queries = 0;
    double recallDefault = 0.0; ///< search(k=10) at ef
    double recallServiceLike
        = 0.0; ///< search(k=120) cut to 10 at ef, as the default recall profile asks
    std::vector<double> exactMs;
    std::vector<double> searchMs; ///< default ef, k=10
    QJsonArray perEf;
    QString error;
    ProcMemory memory; ///< this process after the check (not the service)
};

AnnRun annRecall(const ClusteredData &data, const BenchOptions &options)
{
    AnnRun run;
    const qint64 n = data.count();
    const auto deadline = Clock::now() + std::chrono::seconds(options.maxPhaseSeconds);

    auto t0 = Clock::now();
    std::vector<float> all(size_t(n) * size_t(kDim));
    for (qint64 i = 0; i < n; ++i)
        data.node(i, all.data() + size_t(i) * size_t(kDim));
    QVector<quint64> labels(n);
    std::iota(labels.begin(), labels.end(), quint64(0));
    run.generateMs = msSince(t0);

    VectorIndex index(kDim, int(n) + 16);
    run.defaultEf = index.efSearch();
    t0 = Clock::now();
    auto built = index.upsertMany(labels, all.data());
    run.buildMs = msSince(t0);
    std::vector<float>().swap(all);
    if (!built) {
        run.error = QStringLiteral("upsertMany: ") + built.error().message;
        return run;
    }

    Rng rng(options.seed ^ 0xA11CE5ULL);
    std::vector<std::vector<float>> queries;
    std::vector<std::vector<quint64>> truth;
    for (int qi = 0; qi < options.annQueries && Clock::now() < deadline; ++qi) {
        std::vector<float> q(static_cast<size_t>(kDim));
        data.query(rng, options.queryNoise, q.data());
        const auto e0 = Clock::now();
        const QVector<VectorHit> exact = index.exactSearch(q.data(), 10);
        run.exactMs.push_back(msSince(e0));
        std::vector<quint64> ids;
        for (const VectorHit &h : exact)
            ids.push_back(h.label);
        queries.push_back(std::move(q));
        truth.push_back(std::move(ids));
    }
    run.queries = int(queries.size());

    auto recallOf = [&](int k, std::vector<double> *latencies) {
        qint64 found = 0, wanted = 0;
        for (size_t qi = 0; qi < queries.size(); ++qi) {
            const auto s0 = Clock::now();
            const QVector<VectorHit> hits = index.search(queries[qi].data(), k);
            if (latencies)
                latencies->push_back(msSince(s0));
            const std::vector<quint64> &want = truth[qi];
            wanted += qint64(want.size());
            for (qsizetype h = 0; h < hits.size() && h < 10; ++h)
                found
                    += std::find(want.begin(), want.end(), hits.at(h).label) != want.end() ? 1 : 0;
        }
        return wanted > 0 ? double(found) / double(wanted) : 0.0;
    };

    for (int ef : {10, 16, 32, 64, 128, 256}) {
        if (Clock::now() > deadline)
            break;
        index.setEfSearch(ef);
        std::vector<double> ms;
        const double recall = recallOf(10, &ms);
        run.perEf.append(QJsonObject{{QStringLiteral("ef"), ef},
                                     {QStringLiteral("recall_at_10"), recall},
                                     {QStringLiteral("search_latency"), Summary::of(ms).toJson()}});
    }
    run.ef = options.annEf;
    index.setEfSearch(run.ef);
    run.recallDefault = recallOf(10, &run.searchMs);
    run.recallServiceLike = recallOf(120, nullptr);
    run.memory = readProcMemory();
    return run;
}

// ---------------------------------------------------------------------------------------------
// Recalls during a bulk write, then after a kill -9 in the middle of the index catch-up

/// The real executable, headless, on a data folder of its own.
class HeadlessChild
{
public:
    bool start(const QString &appPath, const QString &dataDir, const QString &logPrefix,
               QString *error)
    {
        m_port = freeLoopbackPort();
        if (m_port == 0) {
            *error = QStringLiteral("no free loopback port");
            return false;
        }
        m_process.setProgram(appPath);
        m_process.setArguments({QStringLiteral("--headless"), QStringLiteral("--data-dir"), dataDir,
                                QStringLiteral("--port"), QString::number(m_port)});
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("EMBEDDING_PROVIDER"), QStringLiteral("none"));
        env.insert(QStringLiteral("MEMORY_AUTH_MODE"), QStringLiteral("off"));
        m_process.setProcessEnvironment(env);
        m_errLog = logPrefix + QStringLiteral(".stderr.log");
        m_process.setStandardOutputFile(logPrefix + QStringLiteral(".stdout.log"));
        m_process.setStandardErrorFile(m_errLog);
        m_process.setStandardInputFile(QProcess::nullDevice());
        m_started = Clock::now();
        m_process.start();
        if (!m_process.waitForStarted(30000)) {
            *error = QStringLiteral("cannot start %1: %2").arg(appPath, m_process.errorString());
            return false;
        }
        return true;
    }

    /// Milliseconds from the start until GET /health answered 200; -1 with *error otherwise.
    double waitForHealth(int seconds, QString *error)
    {
        const auto deadline = Clock::now() + std::chrono::seconds(seconds);
        while (Clock::now() < deadline) {
            if (m_process.waitForFinished(0) || m_process.state() == QProcess::NotRunning) {
                *error = QStringLiteral("memorygraph exited: %1").arg(fileTail(m_errLog, 600));
                return -1.0;
            }
            HttpClient client(m_port);
            if (client.get("/health", 2000).status == 200)
                return msSince(m_started);
            QThread::msleep(5);
        }
        *error = QStringLiteral("/health did not answer 200 in time");
        return -1.0;
    }

    /// SIGKILL: nothing is saved, the index files stay as the last periodic save left them.
    void killHard()
    {
        m_process.kill();
        m_process.waitForFinished(30000);
    }

    void stop()
    {
        m_process.terminate();
        if (!m_process.waitForFinished(120000))
            killHard();
    }

    quint16 port() const { return m_port; }

private:
    QProcess m_process;
    quint16 m_port = 0;
    QString m_errLog;
    Clock::time_point m_started;
};

/// One client recalling back to back while keepGoing() holds: every latency, errors counted.
RecallRun recallWhile(quint16 port, const ClusteredData &data, const BenchOptions &options,
                      std::uint64_t seed, const std::function<bool()> &keepGoing)
{
    RecallRun run;
    run.clients = 1;
    HttpClient client(port);
    Rng rng(seed);
    std::vector<float> q(static_cast<size_t>(kDim));
    const auto start = Clock::now();
    const auto deadline = start + std::chrono::seconds(options.maxPhaseSeconds);
    for (int r = 0; keepGoing(); ++r) {
        if (Clock::now() > deadline) {
            run.stoppedByDeadline = true;
            break;
        }
        const int cluster = data.query(rng, options.queryNoise, q.data());
        const QByteArray body = recallBody(q.data());
        const auto t0 = Clock::now();
        const HttpClient::Response resp = client.post(kRecallPath, body, options.timeoutMs);
        const double ms = msSince(t0);
        if (!resp.ok()) {
            if (run.errors++ == 0)
                run.firstError = shortError(resp);
            QThread::msleep(5);
            continue;
        }
        run.latencies.push_back(ms);
        if (r % 10 == 0) {
            const SeedCheck check = checkSeeds(resp.body, cluster);
            ++run.checked;
            if (check.seeds <= 0)
                ++run.emptySeedAnswers;
            else {
                run.checkedSeeds += check.seeds;
                run.sameClusterSeeds += check.sameCluster;
            }
        }
    }
    run.wallMs = msSince(start);
    run.connections = client.connectionsOpened();
    return run;
}

struct LiveRun
{
    WriteRun write;                ///< the bulk write, batches of --batch
    RecallRun duringWrite;         ///< one client recalling while it ran
    double restartHealthMs = -1.0; ///< restart after the kill -9 -> /health 200
    RecallRun afterRestart;        ///< one client recalling for --restart-seconds after that
    double firstRecallAfterRestartMs = -1.0;
    QString error;

    QJsonObject toJson() const
    {
        QJsonObject o{{QStringLiteral("write"), write.toJson()},
                      {QStringLiteral("recall_during_write"), duringWrite.toJson()},
                      {QStringLiteral("restart_health_ms"), restartHealthMs},
                      {QStringLiteral("first_recall_after_restart_ms"), firstRecallAfterRestartMs},
                      {QStringLiteral("recall_after_restart"), afterRestart.toJson()}};
        if (!error.isEmpty())
            o.insert(QStringLiteral("error"), error);
        return o;
    }
};

/// A fresh data folder: the executable takes a bulk write of `nodes` nodes while one client
/// recalls, is killed (-9) as soon as the last batch is acknowledged (its index far behind
/// SQLite), restarted, and recalled for --restart-seconds while it catches up.
LiveRun liveWriteAndRestart(const QString &appPath, const QString &dataDir, const QString &logDir,
                            const ClusteredData &data, qint64 nodes, const BenchOptions &options)
{
    LiveRun run;
    {
        HeadlessChild child;
        if (!child.start(appPath, dataDir, QDir(logDir).filePath(QStringLiteral("live")),
                         &run.error)
            || child.waitForHealth(120, &run.error) < 0)
            return run;
        std::atomic<bool> writing{true};
        std::unique_ptr<QThread> writer(QThread::create([&] {
            HttpClient client(child.port());
            run.write = writeNodes(client, data, 0, nodes, options.batchSize, options, false);
            writing = false;
        }));
        writer->start();
        run.duringWrite = recallWhile(child.port(), data, options, options.seed ^ 0x11FEULL,
                                      [&writing] { return writing.load(); });
        writer->wait();
        child.killHard();
    }
    HeadlessChild child;
    if (!child.start(appPath, dataDir, QDir(logDir).filePath(QStringLiteral("restart")),
                     &run.error))
        return run;
    run.restartHealthMs = child.waitForHealth(600, &run.error);
    if (run.restartHealthMs < 0)
        return run;
    const auto until = Clock::now() + std::chrono::seconds(options.restartSeconds);
    run.afterRestart = recallWhile(child.port(), data, options, options.seed ^ 0x5E57ULL,
                                   [until] { return Clock::now() < until; });
    if (!run.afterRestart.latencies.empty())
        run.firstRecallAfterRestartMs = run.afterRestart.latencies.front();
    child.stop();
    return run;
}

// ---------------------------------------------------------------------------------------------

qint64 folderBytes(const QString &dir)
{
    qint64 total = 0;
    QDirIterator it(dir, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        it.next();
        total += it.fileInfo().size();
    }
    return total;
}

struct Verdict
{
    QString name;
    bool met = false;
    QString detail;
};

QJsonObject runSize(qint64 n, const BenchOptions &options, QVector<Verdict> *verdicts,
                    bool *hardFailure)
{
    QJsonObject report{{QStringLiteral("n"), n}};
    QJsonObject loadAverages;
    auto markLoad
        = [&loadAverages](const QString &phase) { loadAverages.insert(phase, readLoadAverage()); };
    markLoad(QStringLiteral("start"));
    const qint64 rawBytes = n * kDim * qint64(sizeof(float));
    const qint64 rssBudget = qint64(kTargetRssFactor * double(rawBytes)) + kTargetRssSlack;
    say(QString());
    say(QStringLiteral("=== N = %1 nodes (%2 clusters, raw vectors %3) ===")
            .arg(n)
            .arg(std::max<qint64>(1, n / options.clusterSize))
            .arg(mib(rawBytes)));

    const auto genStart = Clock::now();
    const ClusteredData data(options.seed, n, kDim, options.clusterSize, options.noise);
    report.insert(QStringLiteral("clusters"), data.clusters());
    report.insert(QStringLiteral("raw_vector_bytes"), rawBytes);
    report.insert(QStringLiteral("centres_ms"), msSince(genStart));

    const QString parent = options.dataDir.isEmpty() ? QDir::tempPath() : options.dataDir;
    QDir().mkpath(parent);
    QTemporaryDir holder(
        QDir(parent).filePath(QStringLiteral("memorygraph-bench-%1-XXXXXX").arg(n)));
    if (!holder.isValid()) {
        say(QStringLiteral("  cannot create a data folder in %1").arg(parent));
        *hardFailure = true;
        report.insert(QStringLiteral("error"), QStringLiteral("no data folder"));
        return report;
    }
    holder.setAutoRemove(!options.keepData);
    const QString dataDir = QDir(holder.path()).filePath(QStringLiteral("data"));
    const QString logDir = QDir(holder.path()).filePath(QStringLiteral("logs"));
    QDir().mkpath(dataDir);
    QDir().mkpath(logDir);
    report.insert(QStringLiteral("data_dir"), dataDir);
    say(QStringLiteral("  data folder %1%2")
            .arg(dataDir, options.keepData ? QStringLiteral(" (kept)") : QString()));

    // ---- 1-3 (HTTP part): in-process service ----
    auto server = std::make_unique<InProcessServer>();
    QString error;
    const auto openStart = Clock::now();
    if (!server->start(dataDir, &error)) {
        say(QStringLiteral("  in-process server failed: ") + error);
        *hardFailure = true;
        report.insert(QStringLiteral("error"), error);
        return report;
    }
    report.insert(QStringLiteral("inprocess_open_ms"), msSince(openStart));
    say(QStringLiteral("  in-process server on 127.0.0.1:%1").arg(server->port()));

    HttpClient writer(server->port());
    say(QStringLiteral("  [1] writing %1 nodes in batches of %2 ...")
            .arg(n)
            .arg(options.batchSize));
    markLoad(QStringLiteral("write"));
    const WriteRun load = writeNodes(writer, data, 0, n, options.batchSize, options, options.prime);
    const ProcMemory afterLoad = readProcMemory();
    report.insert(QStringLiteral("write_batch100"), load.toJson());
    if (load.errors > 0 || load.nodes != n) {
        say(QStringLiteral("  write errors: %1 (%2)").arg(load.errors).arg(load.firstError));
        *hardFailure = true;
    }

    // The first recall after the load mirrors what the index has not seen yet.
    say(QStringLiteral("  [2] recall ..."));
    markLoad(QStringLiteral("recall"));
    double firstRecallAfterLoadMs = -1.0;
    {
        Rng rng(options.seed ^ 0xF1257ULL);
        std::vector<float> q(static_cast<size_t>(kDim));
        data.query(rng, options.queryNoise, q.data());
        const auto t0 = Clock::now();
        const HttpClient::Response r
            = writer.post(kRecallPath, recallBody(q.data()), options.timeoutMs);
        firstRecallAfterLoadMs = msSince(t0);
        if (!r.ok())
            say(QStringLiteral("  first recall failed: ") + shortError(r));
    }
    report.insert(QStringLiteral("first_recall_after_load_ms"), firstRecallAfterLoadMs);

    // The steady-state runs below measure a caught-up index; how long catching up took after
    // the load is a figure of its own (no request waited for it).
    const auto catchUpStart = Clock::now();
    server->service()->waitForIndexes();
    const double indexCatchUpMs = msSince(catchUpStart);
    report.insert(QStringLiteral("index_catch_up_after_load_ms"), indexCatchUpMs);

    const RecallRun single = recallClients(server->port(), data, options, 1, options.seed ^ 0x1000);
    const RecallRun multi
        = recallClients(server->port(), data, options, options.clients, options.seed ^ 0x2000);
    const RecallRun byText
        = recallClients(server->port(), data, options, 1, options.seed ^ 0x3000, RecallBy::Text);
    report.insert(QStringLiteral("recall_1_client"), single.toJson());
    report.insert(QStringLiteral("recall_text_1_client"), byText.toJson());
    report.insert(QStringLiteral("recall_n_clients"), multi.toJson());
    if (single.errors + multi.errors + byText.errors > 0)
        *hardFailure = true;
    const ProcMemory afterRecall = readProcMemory();

    say(QStringLiteral("  [1b] %1 batches of %2 nodes ...")
            .arg(options.smallBatches)
            .arg(options.smallBatchSize));
    markLoad(QStringLiteral("write_batch10"));
    const WriteRun small
        = writeNodes(writer, data, n, qint64(options.smallBatches) * options.smallBatchSize,
                     options.smallBatchSize, options, false);
    report.insert(QStringLiteral("write_batch10"), small.toJson());
    if (small.errors > 0)
        *hardFailure = true;
    writer.disconnect();

    const ProcMemory inProcess = readProcMemory();
    const auto stopTimes = server->stop();
    server.reset();
    report.insert(QStringLiteral("inprocess_stop"),
                  QJsonObject{{QStringLiteral("http_stop_ms"), stopTimes.httpStopMs},
                              {QStringLiteral("service_close_ms"), stopTimes.serviceCloseMs}});
    report.insert(QStringLiteral("inprocess_memory"),
                  QJsonObject{{QStringLiteral("peak_rss_bytes_after_load"), afterLoad.peakRss},
                              {QStringLiteral("peak_rss_bytes_after_recall"), afterRecall.peakRss},
                              {QStringLiteral("peak_rss_bytes"), inProcess.peakRss},
                              {QStringLiteral("rss_bytes_before_stop"), inProcess.rss}});
    const qint64 diskBytes = folderBytes(dataDir);
    report.insert(QStringLiteral("disk_bytes"), diskBytes);

    // ---- 4. cold start of the executable ----
    std::vector<ColdRun> colds;
    markLoad(QStringLiteral("cold_start"));
    if (!options.skipCold) {
        say(QStringLiteral("  [4] cold start of %1 (x%2) ...")
                .arg(options.appPath)
                .arg(options.coldRuns));
        if (!QFileInfo(options.appPath).isExecutable()) {
            say(QStringLiteral("  no executable at %1 (use --app)").arg(options.appPath));
            *hardFailure = true;
        } else {
            for (int r = 0; r < options.coldRuns; ++r) {
                colds.push_back(coldStart(options.appPath, dataDir, logDir, r, data, options));
                if (!colds.back().error.isEmpty()) {
                    say(QStringLiteral("  cold start %1: %2").arg(r).arg(colds.back().error));
                    *hardFailure = true;
                }
            }
        }
    }
    QJsonArray coldJson;
    std::vector<double> coldHealth, coldRecall;
    qint64 childPeak = -1;
    for (const ColdRun &c : colds) {
        coldJson.append(c.toJson());
        if (c.healthMs >= 0)
            coldHealth.push_back(c.healthMs);
        if (c.firstRecallMs >= 0)
            coldRecall.push_back(c.firstRecallMs);
        childPeak = std::max(childPeak, c.memory.peakRss);
    }
    const Summary coldHealthS = Summary::of(coldHealth);
    const Summary coldRecallS = Summary::of(coldRecall);
    report.insert(QStringLiteral("cold_start"),
                  QJsonObject{{QStringLiteral("runs"), coldJson},
                              {QStringLiteral("health_ms_median"), coldHealthS.p50},
                              {QStringLiteral("first_recall_ms_median"), coldRecallS.p50},
                              {QStringLiteral("child_peak_rss_bytes_max"), childPeak}});

    // ---- 6. recalls during a bulk write, and after a kill -9 in the middle of the catch-up ----
    LiveRun live;
    const qint64 liveNodes = options.liveNodes >= 0 ? options.liveNodes : n;
    markLoad(QStringLiteral("live"));
    if (!options.skipLive && liveNodes > 0) {
        say(QStringLiteral(
                "  [6] %1 nodes written into a fresh %2 while one client recalls; kill -9, "
                "restart, recalls for %3 s ...")
                .arg(liveNodes)
                .arg(options.appPath)
                .arg(options.restartSeconds));
        const QString liveDir = QDir(holder.path()).filePath(QStringLiteral("live"));
        QDir().mkpath(liveDir);
        live = liveWriteAndRestart(options.appPath, liveDir, logDir, data, liveNodes, options);
        if (!live.error.isEmpty()) {
            say(QStringLiteral("  live phase: ") + live.error);
            *hardFailure = true;
        }
        report.insert(QStringLiteral("live"), live.toJson());
    }

    // ---- 3. recall@10 of the index ----
    AnnRun ann;
    if (!options.skipAnn) {
        say(QStringLiteral("  [3] recall@10: building a standalone index of %1 vectors ...")
                .arg(n));
        markLoad(QStringLiteral("ann"));
        ann = annRecall(data, options);
        if (!ann.error.isEmpty()) {
            say(QStringLiteral("  recall@10 failed: ") + ann.error);
            *hardFailure = true;
        }
        report.insert(
            QStringLiteral("ann"),
            QJsonObject{{QStringLiteral("generate_ms"), ann.generateMs},
                        {QStringLiteral("build_ms"), ann.buildMs},
                        {QStringLiteral("build_inserts_per_s"),
                         ann.buildMs > 0 ? double(n) * 1000.0 / ann.buildMs : 0.0},
                        {QStringLiteral("vectorindex_default_ef"), ann.defaultEf},
                        {QStringLiteral("ef"), ann.ef},
                        {QStringLiteral("queries"), ann.queries},
                        {QStringLiteral("recall_at_10"), ann.recallDefault},
                        {QStringLiteral("recall_at_10_k120"), ann.recallServiceLike},
                        {QStringLiteral("search_latency"), Summary::of(ann.searchMs).toJson()},
                        {QStringLiteral("exact_latency"), Summary::of(ann.exactMs).toJson()},
                        {QStringLiteral("per_ef"), ann.perEf},
                        {QStringLiteral("bench_process_peak_rss_bytes"), ann.memory.peakRss},
                        {QStringLiteral("error"), ann.error}});
    }

    markLoad(QStringLiteral("end"));
    report.insert(QStringLiteral("load_average"), loadAverages);

    // ---- table ----
    const Summary big = Summary::of(load.batchMs);
    const Summary tiny = Summary::of(small.batchMs);
    const Summary one = Summary::of(single.latencies);
    const Summary many = Summary::of(multi.latencies);
    const Summary text = Summary::of(byText.latencies);
    say(QString());
    say(QStringLiteral("  Results for N = %1").arg(n));
    say(QStringLiteral("  %1").arg(QString(96, QLatin1Char('-'))));
    say(QStringLiteral(
            "  write, batches of %1   %2 nodes/s (HTTP time), %3 nodes/s (wall); batch %4")
            .arg(options.batchSize)
            .arg(load.httpMs > 0 ? double(load.nodes) * 1000.0 / load.httpMs : 0.0, 0, 'f', 0)
            .arg(load.wallMs > 0 ? double(load.nodes) * 1000.0 / load.wallMs : 0.0, 0, 'f', 0)
            .arg(big.toText()
                 + (load.stoppedByDeadline ? QStringLiteral(" [time limit reached]") : QString())));
    if (load.primeRecallMs >= 0)
        say(QStringLiteral("                          priming recall after batch 1: %1 ms")
                .arg(formatNumber(load.primeRecallMs)));
    say(QStringLiteral("  write, batches of %1    batch %2")
            .arg(options.smallBatchSize, -2)
            .arg(
                tiny.toText()
                + (small.stoppedByDeadline ? QStringLiteral(" [time limit reached]") : QString())));
    say(QStringLiteral("  first recall after load  %1 ms; the index caught up %2 ms after the load")
            .arg(formatNumber(firstRecallAfterLoadMs), formatNumber(indexCatchUpMs)));
    const QString budgetHit = QStringLiteral(" [time budget reached]");
    say(QStringLiteral("  recall, 1 client         %1 req/s; %2; top-10 seed purity %3%4")
            .arg(single.requestsPerSecond(), 0, 'f', 1)
            .arg(one.toText())
            .arg(single.purity(), 0, 'f', 3)
            .arg(single.stoppedByDeadline ? budgetHit : QString()));
    say(QStringLiteral("  recall, %1 clients        %2 req/s; %3; top-10 seed purity %4%5")
            .arg(options.clients, -2)
            .arg(multi.requestsPerSecond(), 0, 'f', 1)
            .arg(many.toText())
            .arg(multi.purity(), 0, 'f', 3)
            .arg(multi.stoppedByDeadline ? budgetHit : QString()));
    say(QStringLiteral("  recall_text, 1 client    %1 req/s; %2 (vector, words, word senses)%3")
            .arg(byText.requestsPerSecond(), 0, 'f', 1)
            .arg(text.toText())
            .arg(byText.stoppedByDeadline ? budgetHit : QString()));
    if (!options.skipAnn)
        say(QStringLiteral(
                "  recall@10 (ef %1, k 10) %2 over %3 queries; with k=120 as the service asks %4; "
                "search p50 %5 ms, exact p50 %6 ms; build %7 s")
                .arg(ann.ef, -3)
                .arg(ann.recallDefault, 0, 'f', 4)
                .arg(ann.queries)
                .arg(ann.recallServiceLike, 0, 'f', 4)
                .arg(formatNumber(Summary::of(ann.searchMs).p50),
                     formatNumber(Summary::of(ann.exactMs).p50))
                .arg(ann.buildMs / 1000.0, 0, 'f', 1));
    if (!options.skipAnn) {
        QStringList efs;
        for (const QJsonValue &v : ann.perEf)
            efs << QStringLiteral("ef %1: %2")
                       .arg(v[QStringLiteral("ef")].toInt())
                       .arg(v[QStringLiteral("recall_at_10")].toDouble(), 0, 'f', 3);
        say(QStringLiteral("                          ") + efs.join(QStringLiteral(", ")));
    }
    if (!options.skipCold) {
        QStringList each;
        std::vector<double> warm;
        for (const ColdRun &c : colds) {
            each << QStringLiteral("%1/%2").arg(formatNumber(c.healthMs),
                                                formatNumber(c.firstRecallMs));
            if (c.warmRecallMs >= 0)
                warm.push_back(c.warmRecallMs);
        }
        say(QStringLiteral("  cold start (median)      /health %1 ms, first recall %2 ms  [runs "
                           "health/recall: %3]; "
                           "next recalls p50 %4 ms")
                .arg(formatNumber(coldHealthS.p50), formatNumber(coldRecallS.p50),
                     each.join(QStringLiteral(", ")), formatNumber(Summary::of(warm).p50)));
    }
    if (!options.skipLive && liveNodes > 0) {
        const Summary during = Summary::of(live.duringWrite.latencies);
        const Summary restart = Summary::of(live.afterRestart.latencies);
        say(QStringLiteral(
                "  recall during a write    of %1 nodes (%2 nodes/s): %3; purity %4, errors %5")
                .arg(live.write.nodes)
                .arg(live.write.httpMs > 0 ? double(live.write.nodes) * 1000.0 / live.write.httpMs
                                           : 0.0,
                     0, 'f', 0)
                .arg(during.toText())
                .arg(live.duringWrite.purity(), 0, 'f', 3)
                .arg(live.duringWrite.errors));
        say(QStringLiteral("  recall after kill -9     /health %1 ms, first recall %2 ms; %3; "
                           "purity %4, errors %5")
                .arg(formatNumber(live.restartHealthMs),
                     formatNumber(live.firstRecallAfterRestartMs))
                .arg(restart.toText())
                .arg(live.afterRestart.purity(), 0, 'f', 3)
                .arg(live.afterRestart.errors));
    }
    say(QStringLiteral(
            "  peak RSS                 in-process %1 (after load %2), headless child %3; "
            "budget 1.3 x raw + 200 MiB = %4")
            .arg(mib(inProcess.peakRss), mib(afterLoad.peakRss), mib(childPeak), mib(rssBudget)));
    say(QStringLiteral("  disk                     %1 in the data folder; in-process close %2 ms")
            .arg(mib(diskBytes), formatNumber(stopTimes.serviceCloseMs)));
    say(QStringLiteral(
            "  load average (1/5/15 m)  start %1; write %2; recall %3; batch-10 %4; end %5")
            .arg(loadAverages.value(QStringLiteral("start")).toString(),
                 loadAverages.value(QStringLiteral("write")).toString(),
                 loadAverages.value(QStringLiteral("recall")).toString(),
                 loadAverages.value(QStringLiteral("write_batch10")).toString(),
                 loadAverages.value(QStringLiteral("end")).toString()));

    // ---- verdicts ----
    const QString tag = QStringLiteral("N=%1").arg(n);
    auto add = [&](const QString &name, bool met, const QString &detail) {
        verdicts->append({tag + QLatin1Char(' ') + name, met, detail});
    };
    add(QStringLiteral("write batch-10 p95 <= 20 ms"),
        tiny.count > 0 && tiny.p95 <= kTargetSmallBatchP95Ms,
        QStringLiteral("p95 %1, p100 %2 ms").arg(formatNumber(tiny.p95), formatNumber(tiny.max)));
    if (n <= 10000) {
        const double rate = load.httpMs > 0 ? double(load.nodes) * 1000.0 / load.httpMs : 0.0;
        add(QStringLiteral("write batch-100 >= 3300 nodes/s"), rate >= kTargetWriteNodesPerSecond,
            QStringLiteral("%1 nodes/s").arg(rate, 0, 'f', 0));
    }
    add(QStringLiteral("first recall after load <= 100 ms"),
        firstRecallAfterLoadMs >= 0 && firstRecallAfterLoadMs <= kTargetFirstRecallAfterLoadMs,
        QStringLiteral("%1 ms").arg(formatNumber(firstRecallAfterLoadMs)));
    if (!options.skipLive && liveNodes > 0) {
        const Summary during = Summary::of(live.duringWrite.latencies);
        const Summary restart = Summary::of(live.afterRestart.latencies);
        add(QStringLiteral("recall during bulk write p95 <= 50 ms"),
            during.count > 0 && during.p95 <= kTargetRecallDuringWriteP95Ms
                && live.duringWrite.errors == 0,
            QStringLiteral("p95 %1, p100 %2 ms")
                .arg(formatNumber(during.p95), formatNumber(during.max)));
        add(QStringLiteral("recall after restart mid catch-up p95 <= 50 ms"),
            restart.count > 0 && restart.p95 <= kTargetRecallDuringWriteP95Ms
                && live.afterRestart.errors == 0,
            QStringLiteral("p95 %1, p100 %2 ms")
                .arg(formatNumber(restart.p95), formatNumber(restart.max)));
    }
    add(QStringLiteral("recall 1-client p95 <= 10 ms"),
        one.count > 0 && one.p95 <= kTargetRecallP95Ms,
        QStringLiteral("p95 %1, p100 %2 ms").arg(formatNumber(one.p95), formatNumber(one.max)));
    add(QStringLiteral("recall_text 1-client p95 <= 10 ms"),
        text.count > 0 && text.p95 <= kTargetRecallP95Ms,
        QStringLiteral("p95 %1, p100 %2 ms").arg(formatNumber(text.p95), formatNumber(text.max)));
    if (!options.skipAnn)
        add(QStringLiteral("recall@10 >= 0.95"),
            ann.error.isEmpty() && ann.recallDefault >= kTargetAnnRecall,
            QStringLiteral("%1 at ef %2").arg(ann.recallDefault, 0, 'f', 4).arg(ann.ef));
    if (!options.skipCold)
        add(QStringLiteral("cold start to first recall <= 2 s"),
            coldRecallS.count > 0 && coldRecallS.p50 <= kTargetColdStartMs,
            QStringLiteral("median %1 ms (health %2 ms)")
                .arg(formatNumber(coldRecallS.p50), formatNumber(coldHealthS.p50)));
    add(QStringLiteral("in-process peak RSS <= 1.3 x raw + 200 MiB"),
        inProcess.peakRss >= 0 && inProcess.peakRss <= rssBudget,
        QStringLiteral("%1 vs %2").arg(mib(inProcess.peakRss), mib(rssBudget)));
    if (!options.skipCold)
        add(QStringLiteral("headless peak RSS <= 1.3 x raw + 200 MiB"),
            childPeak >= 0 && childPeak <= rssBudget,
            QStringLiteral("%1 vs %2").arg(mib(childPeak), mib(rssBudget)));
    report.insert(QStringLiteral("rss_budget_bytes"), rssBudget);
    return report;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("memorygraph_bench"));
    const ParsedOptions parsed = parseBenchOptions(QCoreApplication::arguments());
    if (parsed.exitNow)
        return parsed.exitCode;
    const BenchOptions &options = parsed.options;

    QStringList sizes;
    for (qint64 n : options.sizes)
        sizes << QString::number(n);
    say(QStringLiteral("memorygraph_bench: sizes %1, seed %2, %3 cores, %4")
            .arg(sizes.join(QLatin1Char(',')))
            .arg(options.seed)
            .arg(QThread::idealThreadCount())
            .arg(QSysInfo::prettyProductName()));
    say(QStringLiteral("data: clusters of ~%1, node noise %2, query noise %3; recall: %4 clients x "
                       "%5 requests "
                       "after %6 warm-up each")
            .arg(options.clusterSize)
            .arg(options.noise)
            .arg(options.queryNoise)
            .arg(options.clients)
            .arg(options.requests)
            .arg(options.warmup));

    QJsonArray runs;
    QVector<Verdict> verdicts;
    bool hardFailure = false;
    const auto start = Clock::now();
    for (qint64 n : options.sizes)
        runs.append(runSize(n, options, &verdicts, &hardFailure));

    say(QString());
    say(QStringLiteral("=== Targets ==="));
    QJsonArray verdictJson;
    for (const Verdict &v : verdicts) {
        say(QStringLiteral("  %1  %2  (%3)").arg(passText(v.met), -6).arg(v.name, v.detail));
        verdictJson.append(QJsonObject{{QStringLiteral("target"), v.name},
                                       {QStringLiteral("met"), v.met},
                                       {QStringLiteral("measured"), v.detail}});
    }
    say(QStringLiteral("total time %1 s").arg(msSince(start) / 1000.0, 0, 'f', 1));

    if (!options.jsonPath.isEmpty()) {
        const QJsonObject report{
            {QStringLiteral("tool"), QStringLiteral("memorygraph_bench")},
            {QStringLiteral("version"), QStringLiteral(MEMORYGRAPH_VERSION)},
            {QStringLiteral("started_at"), QDateTime::currentDateTimeUtc().toString(Qt::ISODate)},
            {QStringLiteral("machine"),
             QJsonObject{{QStringLiteral("cores"), QThread::idealThreadCount()},
                         {QStringLiteral("os"), QSysInfo::prettyProductName()},
                         {QStringLiteral("kernel"), QSysInfo::kernelVersion()}}},
            {QStringLiteral("config"),
             QJsonObject{{QStringLiteral("seed"), QString::number(options.seed)},
                         {QStringLiteral("dimension"), kDim},
                         {QStringLiteral("cluster_size"), options.clusterSize},
                         {QStringLiteral("node_noise"), options.noise},
                         {QStringLiteral("query_noise"), options.queryNoise},
                         {QStringLiteral("batch_size"), options.batchSize},
                         {QStringLiteral("small_batch_size"), options.smallBatchSize},
                         {QStringLiteral("small_batches"), options.smallBatches},
                         {QStringLiteral("requests_per_client"), options.requests},
                         {QStringLiteral("warmup_per_client"), options.warmup},
                         {QStringLiteral("clients"), options.clients},
                         {QStringLiteral("ann_queries"), options.annQueries},
                         {QStringLiteral("cold_runs"), options.coldRuns},
                         {QStringLiteral("prime"), options.prime},
                         {QStringLiteral("live_nodes"), options.liveNodes},
                         {QStringLiteral("restart_seconds"), options.restartSeconds},
                         {QStringLiteral("app"), options.appPath}}},
            {QStringLiteral("runs"), runs},
            {QStringLiteral("targets"), verdictJson},
            {QStringLiteral("total_ms"), msSince(start)}};
        QSaveFile file(options.jsonPath);
        if (!file.open(QIODevice::WriteOnly)
            || file.write(QJsonDocument(report).toJson(QJsonDocument::Indented)) < 0
            || !file.commit()) {
            std::fprintf(stderr, "memorygraph_bench: cannot write %s: %s\n",
                         qUtf8Printable(options.jsonPath), qUtf8Printable(file.errorString()));
            return 2;
        }
        say(QStringLiteral("JSON report: %1").arg(QFileInfo(options.jsonPath).absoluteFilePath()));
    }
    return hardFailure ? 1 : 0;
}
