#pragma once

#include <QList>
#include <QString>
#include <QStringList>
#include <QtGlobal>

#include <cstdint>

namespace MemoryGraph::Bench {

/// Command-line options of memorygraph_bench (see --help and README.md).
struct BenchOptions
{
    QList<qint64> sizes{1000, 10000, 100000};
    QString jsonPath;      ///< --json: report file; empty = none
    QString dataDir;       ///< --data-dir: parent of the per-size data folders; empty = temp
    bool keepData = false; ///< --keep-data
    QString appPath;       ///< --app: the memorygraph executable for the cold start
    std::uint64_t seed = 20240611;
    int clusterSize = 50;    ///< nodes per cluster on average (N / clusterSize centres)
    double noise = 1.0;      ///< norm of a node's noise vector (centre has norm 1)
    double queryNoise = 0.5; ///< norm of a query's noise vector
    int batchSize = 100;     ///< load batches
    int smallBatchSize = 10;
    int smallBatches = 200;
    int requests = 500;   ///< measured recalls per client
    int warmup = 50;      ///< unmeasured recalls per client before that
    int clients = 8;      ///< concurrent clients of the second recall run
    int annQueries = 200; ///< queries of the recall@10 check
    /// ef of the recall@10 target figure: the service's indexes search with 128
    /// (kEfSearch in service/index/indexmanager.cpp); VectorIndex's own default is 64.
    int annEf = 128;
    int coldRuns = 3;        ///< cold starts per size (median reported)
    bool prime = false;      ///< --prime: recall once after the first batch of the load
    int liveNodes = -1;      ///< nodes of the bulk write under recalls; -1 = N of the size
    int restartSeconds = 30; ///< recalls measured after the restart in the middle of a catch-up
    bool skipLive = false;
    bool skipCold = false;
    bool skipAnn = false;
    int timeoutMs = 300000;     ///< per request
    int maxPhaseSeconds = 3600; ///< every phase stops by itself after this
    int recallSeconds = 240;    ///< time budget of each recall run's measured part (warm-up: 1/4)
};

struct ParsedOptions
{
    BenchOptions options;
    bool exitNow = false; ///< --help was printed, or an error
    int exitCode = 0;
};

ParsedOptions parseBenchOptions(const QStringList &arguments);

} // namespace MemoryGraph::Bench
