#include "tests/benchmark/benchoptions.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

#include <cstdio>

namespace MemoryGraph::Bench {

namespace {

QString defaultAppPath()
{
    // Build tree: <build>/tests/benchmark/memorygraph_bench next to <build>/app/memorygraph.
    const QString sibling = QDir(QCoreApplication::applicationDirPath())
                                .filePath(QStringLiteral("../../app/memorygraph"));
    if (QFileInfo(sibling).isExecutable())
        return QDir::cleanPath(sibling);
#ifdef MEMORYGRAPH_BENCH_DEFAULT_APP
    return QStringLiteral(MEMORYGRAPH_BENCH_DEFAULT_APP);
#else
    return QDir::cleanPath(sibling);
#endif
}

ParsedOptions failure(const QString &message)
{
    std::fprintf(stderr, "memorygraph_bench: %s\nTry --help.\n", qUtf8Printable(message));
    ParsedOptions parsed;
    parsed.exitNow = true;
    parsed.exitCode = 2;
    return parsed;
}

} // namespace

ParsedOptions parseBenchOptions(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Measures write throughput, recall latency, ANN recall@10, cold start and peak RSS of the "
        "Memory Graph service on synthetic clustered 1536-d embeddings. Only 127.0.0.1 is used."));
    parser.addHelpOption();
    const QCommandLineOption sizes(
        QStringLiteral("sizes"),
        QStringLiteral("Comma-separated node counts (default 1000,10000,100000)."),
        QStringLiteral("list"));
    const QCommandLineOption quick(QStringLiteral("quick"), QStringLiteral("Only N=1000."));
    const QCommandLineOption json(QStringLiteral("json"),
                                  QStringLiteral("Write the JSON report to file."),
                                  QStringLiteral("file"));
    const QCommandLineOption dataDir(
        QStringLiteral("data-dir"),
        QStringLiteral("Parent folder of the per-size data folders (default: system temp)."),
        QStringLiteral("dir"));
    const QCommandLineOption keep(QStringLiteral("keep-data"),
                                  QStringLiteral("Do not delete the data folders."));
    const QCommandLineOption app(
        QStringLiteral("app"),
        QStringLiteral(
            "The memorygraph executable for the cold-start phase (default: ../../app/memorygraph "
            "relative to this program)."),
        QStringLiteral("path"));
    const QCommandLineOption seed(QStringLiteral("seed"),
                                  QStringLiteral("Data seed (default 20240611)."),
                                  QStringLiteral("n"));
    const QCommandLineOption clusterSize(
        QStringLiteral("cluster-size"),
        QStringLiteral("Average nodes per cluster: N/size centres (default 50)."),
        QStringLiteral("n"));
    const QCommandLineOption noise(
        QStringLiteral("noise"),
        QStringLiteral(
            "Norm of a node's noise around its unit centre (default 1.0; larger = harder ANN)."),
        QStringLiteral("x"));
    const QCommandLineOption queryNoise(
        QStringLiteral("query-noise"),
        QStringLiteral("Norm of a query's noise around its centre (default 0.5)."),
        QStringLiteral("x"));
    const QCommandLineOption requests(QStringLiteral("requests"),
                                      QStringLiteral("Measured recalls per client (default 500)."),
                                      QStringLiteral("n"));
    const QCommandLineOption warmup(
        QStringLiteral("warmup"),
        QStringLiteral("Unmeasured recalls per client first (default 50)."), QStringLiteral("n"));
    const QCommandLineOption clients(
        QStringLiteral("clients"),
        QStringLiteral("Concurrent clients of the second recall run (default 8)."),
        QStringLiteral("n"));
    const QCommandLineOption smallBatches(
        QStringLiteral("small-batches"),
        QStringLiteral("Batches of 10 nodes written after the recall runs (default 200)."),
        QStringLiteral("n"));
    const QCommandLineOption annQueries(
        QStringLiteral("ann-queries"),
        QStringLiteral("Queries of the recall@10 check (default 200)."), QStringLiteral("n"));
    const QCommandLineOption ef(
        QStringLiteral("ef"),
        QStringLiteral(
            "ef of the recall@10 target figure (default 128, what the service's indexes use)."),
        QStringLiteral("n"));
    const QCommandLineOption coldRuns(
        QStringLiteral("cold-runs"),
        QStringLiteral("Cold starts of the executable per size (default 3)."), QStringLiteral("n"));
    const QCommandLineOption prime(
        QStringLiteral("prime"),
        QStringLiteral(
            "Recall once after the first batch of the load (the default is no search at all "
            "until the load is done: that first recall is a reported figure)."));
    const QCommandLineOption noPrime(
        QStringLiteral("no-prime"),
        QStringLiteral("No recall during the load (the default; kept for old command lines)."));
    const QCommandLineOption liveNodes(
        QStringLiteral("live-nodes"),
        QStringLiteral("Nodes of the bulk write that runs under recalls, then is cut by a kill -9 "
                       "(default: N of the size)."),
        QStringLiteral("n"));
    const QCommandLineOption restartSeconds(
        QStringLiteral("restart-seconds"),
        QStringLiteral(
            "How long recalls are measured after the restart in the middle of a catch-up "
            "(default 30)."),
        QStringLiteral("s"));
    const QCommandLineOption skipLive(
        QStringLiteral("skip-live"),
        QStringLiteral("Skip the recall-during-write and restart phases."));
    const QCommandLineOption skipCold(QStringLiteral("skip-cold"),
                                      QStringLiteral("Skip the cold-start phase."));
    const QCommandLineOption skipAnn(QStringLiteral("skip-ann"),
                                     QStringLiteral("Skip the recall@10 phase."));
    const QCommandLineOption timeout(QStringLiteral("timeout-ms"),
                                     QStringLiteral("Per-request timeout (default 300000)."),
                                     QStringLiteral("ms"));
    const QCommandLineOption maxPhase(
        QStringLiteral("max-phase-seconds"),
        QStringLiteral("Stop any phase after this long (default 3600)."), QStringLiteral("s"));
    const QCommandLineOption recallSeconds(
        QStringLiteral("recall-seconds"),
        QStringLiteral("Time budget of each recall run's measured part; the warm-up gets a quarter "
                       "of it (default 240)."),
        QStringLiteral("s"));
    parser.addOptions({sizes,      quick,       json,     dataDir, keep,      app,
                       seed,       clusterSize, requests, warmup,  clients,   smallBatches,
                       annQueries, coldRuns,    prime,    noPrime, liveNodes, restartSeconds,
                       skipLive,   skipCold,    skipAnn,  timeout, maxPhase,  recallSeconds,
                       noise,      queryNoise,  ef});
    if (!parser.parse(arguments))
        return failure(parser.errorText());
    if (parser.isSet(QStringLiteral("help"))) {
        std::fputs(qUtf8Printable(parser.helpText()), stdout);
        ParsedOptions parsed;
        parsed.exitNow = true;
        return parsed;
    }
    if (!parser.positionalArguments().isEmpty())
        return failure(QStringLiteral("unexpected argument ")
                       + parser.positionalArguments().first());

    ParsedOptions parsed;
    BenchOptions &o = parsed.options;
    auto integer = [&parser](const QCommandLineOption &option, int low, int high, int *out) {
        if (!parser.isSet(option))
            return true;
        bool ok = false;
        const int value = parser.value(option).toInt(&ok);
        if (!ok || value < low || value > high)
            return false;
        *out = value;
        return true;
    };
    if (parser.isSet(sizes)) {
        o.sizes.clear();
        for (const QString &part :
             parser.value(sizes).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            bool ok = false;
            const qint64 n = part.trimmed().toLongLong(&ok);
            if (!ok || n < 100 || n > 10000000)
                return failure(
                    QStringLiteral("--sizes: '%1' is not a count in 100..10000000").arg(part));
            o.sizes.append(n);
        }
        if (o.sizes.isEmpty())
            return failure(QStringLiteral("--sizes is empty"));
    }
    if (parser.isSet(quick))
        o.sizes = {1000};
    o.jsonPath = parser.value(json);
    o.dataDir = parser.value(dataDir);
    o.keepData = parser.isSet(keep);
    o.appPath = parser.isSet(app) ? parser.value(app) : defaultAppPath();
    if (parser.isSet(seed)) {
        bool ok = false;
        o.seed = parser.value(seed).toULongLong(&ok);
        if (!ok)
            return failure(QStringLiteral("--seed must be a non-negative integer"));
    }
    if (!integer(clusterSize, 1, 100000, &o.clusterSize))
        return failure(QStringLiteral("--cluster-size must be in 1..100000"));
    auto real = [&parser](const QCommandLineOption &option, double *out) {
        if (!parser.isSet(option))
            return true;
        bool ok = false;
        const double value = parser.value(option).toDouble(&ok);
        if (!ok || !(value >= 0.0) || value > 100.0)
            return false;
        *out = value;
        return true;
    };
    if (!real(noise, &o.noise) || !real(queryNoise, &o.queryNoise))
        return failure(QStringLiteral("--noise and --query-noise must be in 0..100"));
    if (!integer(requests, 1, 100000, &o.requests))
        return failure(QStringLiteral("--requests must be in 1..100000"));
    if (!integer(warmup, 0, 100000, &o.warmup))
        return failure(QStringLiteral("--warmup must be in 0..100000"));
    if (!integer(clients, 1, 64, &o.clients))
        return failure(QStringLiteral("--clients must be in 1..64"));
    if (!integer(smallBatches, 0, 100000, &o.smallBatches))
        return failure(QStringLiteral("--small-batches must be in 0..100000"));
    if (!integer(annQueries, 1, 100000, &o.annQueries))
        return failure(QStringLiteral("--ann-queries must be in 1..100000"));
    if (!integer(ef, 1, 100000, &o.annEf))
        return failure(QStringLiteral("--ef must be in 1..100000"));
    if (!integer(coldRuns, 1, 20, &o.coldRuns))
        return failure(QStringLiteral("--cold-runs must be in 1..20"));
    if (!integer(timeout, 100, 3600000, &o.timeoutMs))
        return failure(QStringLiteral("--timeout-ms must be in 100..3600000"));
    if (!integer(maxPhase, 1, 86400, &o.maxPhaseSeconds))
        return failure(QStringLiteral("--max-phase-seconds must be in 1..86400"));
    if (!integer(recallSeconds, 1, 86400, &o.recallSeconds))
        return failure(QStringLiteral("--recall-seconds must be in 1..86400"));
    if (parser.isSet(liveNodes) && !integer(liveNodes, 0, 10000000, &o.liveNodes))
        return failure(QStringLiteral("--live-nodes must be in 0..10000000"));
    if (!integer(restartSeconds, 1, 86400, &o.restartSeconds))
        return failure(QStringLiteral("--restart-seconds must be in 1..86400"));
    o.prime = parser.isSet(prime) && !parser.isSet(noPrime);
    o.skipLive = parser.isSet(skipLive);
    o.skipCold = parser.isSet(skipCold);
    o.skipAnn = parser.isSet(skipAnn);
    return parsed;
}

} // namespace MemoryGraph::Bench
