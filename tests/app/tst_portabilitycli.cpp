// `memorygraph export FILE` and `memorygraph import FILE` as real child processes: progress on
// stderr, the data folder lock, and the HTTP route suggested while an instance owns the folder.

#include "childprocess.h"
#include "service/memoryservice.h"
#include "tests/support/samplescope.h"
#include "tests/support/tempservice.h"

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace MemoryGraph;
using namespace MemoryGraph::AppTest;

namespace {

const QString kBinary = QStringLiteral(MEMORYGRAPH_APP_BINARY);
constexpr int kTimeoutMs = 120000;

QString s(const char *text)
{
    return QString::fromUtf8(text);
}

using Run = Finished;

Run run(const QStringList &arguments)
{
    return runToEnd(kBinary, arguments, kTimeoutMs);
}

QByteArray describe(const Run &r)
{
    return QStringLiteral("exit %1\nstdout: %2\nstderr: %3")
        .arg(r.exitCode)
        .arg(r.out, r.err)
        .toUtf8();
}

/// The store in `dir`, opened in this process (nothing else may hold the folder meanwhile).
std::unique_ptr<MemoryService> openStore(const QString &dir)
{
    ServiceConfig config;
    config.dataDir = dir;
    auto service = MemoryService::open(config);
    return service ? std::move(service).value() : nullptr;
}

/// `memorygraph --headless` on an ephemeral port over `dir`, until destroyed.
class Instance
{
public:
    explicit Instance(const QString &dir)
    {
        m_process.setProcessEnvironment(childEnvironment());
        m_process.start(kBinary, {s("--headless"), s("--port"), s("0"), s("--data-dir"), dir});
        static const QRegularExpression listening(s("listening on (http://[^ ]+)"));
        QElapsedTimer timer;
        timer.start();
        QByteArray output;
        while (url.isEmpty() && timer.elapsed() < kTimeoutMs
               && m_process.state() != QProcess::NotRunning) {
            m_process.waitForReadyRead(200);
            output += m_process.readAllStandardOutput();
            const auto match = listening.match(QString::fromUtf8(output));
            if (match.hasMatch())
                url = match.captured(1);
        }
    }

    ~Instance()
    {
        m_process.terminate();
        if (!m_process.waitForFinished(kTimeoutMs))
            m_process.kill();
    }

    QString url;

private:
    QProcess m_process;
};

} // namespace

class tst_PortabilityCli : public QObject
{
    Q_OBJECT

private slots:
    void exportThenDryRunThenImportIntoAnotherFolder();
    void malformedFileFailsNamingLineAndField();
    void aRunningInstanceOwnsTheFolder();
    void usageErrors();
};

void tst_PortabilityCli::exportThenDryRunThenImportIntoAnotherFolder()
{
    QTemporaryDir source, target, files;
    qint64 sourceNodes = 0;
    {
        auto store = openStore(source.path());
        QVERIFY(store);
        auto filled = Test::fillSampleScope(store.get(), s("default"), s("alpha"));
        QVERIFY2(filled, Test::why(filled));
        QVERIFY(store->waitForEmbeddings(kTimeoutMs));
        sourceNodes = store->health().nodes;
    }
    const QString file = files.filePath(s("alpha.jsonl"));
    Run r = run({s("export"), file, s("--scope"), s("alpha"), s("--data-dir"), source.path()});
    QVERIFY2(r.exitCode == 0, describe(r));
    QVERIFY2(r.err.contains(s("memorygraph export: nodes")), describe(r));
    QVERIFY2(r.err.contains(s("(100%)")), describe(r));
    QVERIFY2(r.out.startsWith(s("exported default/alpha to ")), describe(r));
    QVERIFY(QFile::exists(file));
    QCOMPARE(QFile::permissions(file) & (QFileDevice::ReadGroup | QFileDevice::ReadOther),
             QFileDevice::Permissions());

    r = run({s("import"), file, s("--scope"), s("beta"), s("--dry-run"), s("--data-dir"),
             target.path()});
    QVERIFY2(r.exitCode == 0, describe(r));
    QVERIFY2(r.out.contains(s("dry run of the import of default/alpha")), describe(r));
    QVERIFY2(r.out.contains(s("no conflicts: the import can go ahead")), describe(r));
    QVERIFY2(r.err.contains(s("memorygraph import: checking")), describe(r));
    {
        auto store = openStore(target.path());
        QVERIFY(store);
        QCOMPARE(store->health().commits, 0);
    }

    r = run({s("import"), file, s("--scope"), s("beta"), s("--remap-ids"), s("--data-dir"),
             target.path()});
    QVERIFY2(r.exitCode == 0, describe(r));
    QVERIFY2(r.out.contains(s("imported default/alpha")), describe(r));
    QVERIFY2(r.out.contains(s("1 commit(s)")), describe(r));
    {
        auto store = openStore(target.path());
        QVERIFY(store);
        QCOMPARE(store->health().nodes, sourceNodes);
        auto chain = store->verifyChain(s("default"), s("beta"));
        QVERIFY(chain && chain.value().ok);
    }
    // Again with the same ids into the same scope: refused, nothing written.
    r = run({s("import"), file, s("--scope"), s("beta"), s("--data-dir"), target.path()});
    QCOMPARE(r.exitCode, 5);
    QVERIFY2(r.err.contains(s("import_conflict")), describe(r));
}

void tst_PortabilityCli::malformedFileFailsNamingLineAndField()
{
    QTemporaryDir dir, files;
    const QString file = files.filePath(s("bad.jsonl"));
    QFile bad(file);
    QVERIFY(bad.open(QIODevice::WriteOnly));
    bad.write(R"({"format":"memorygraph-export","version":1,"tenant_id":"default","scope":"a",)"
              R"("counts":{"node":1}})"
              "\n"
              R"({"kind":"node","id":"n1","type":"gadget","created_at":"2025-01-01T00:00:00Z"})"
              "\n");
    bad.close();
    const Run r = run({s("import"), file, s("--data-dir"), dir.path()});
    QCOMPARE(r.exitCode, 5);
    QVERIFY2(r.err.contains(s("line 2, field type: must be one of")), describe(r));
    auto store = openStore(dir.path());
    QVERIFY(store);
    QCOMPARE(store->health().nodes, 0);
}

void tst_PortabilityCli::aRunningInstanceOwnsTheFolder()
{
    QTemporaryDir dir, files;
    Instance instance(dir.path());
    QVERIFY(!instance.url.isEmpty());
    const QString file = files.filePath(s("x.jsonl"));
    Run r = run({s("export"), file, s("--data-dir"), dir.path()});
    QCOMPARE(r.exitCode, 4);
    QVERIFY2(r.err.contains(s("is in use by memorygraph")), describe(r));
    QVERIFY2(r.err.contains(instance.url + s("/v1/admin/export")), describe(r));
    QVERIFY(!QFile::exists(file));
    r = run({s("import"), file, s("--dry-run"), s("--data-dir"), dir.path()});
    QCOMPARE(r.exitCode, 4);
    QVERIFY2(r.err.contains(s("/v1/admin/import?dry_run=true")), describe(r));
}

void tst_PortabilityCli::usageErrors()
{
    Run r = run({s("import")});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains(s("import needs a FILE")), describe(r));
    r = run({s("export"), s("x.jsonl"), s("--remap-ids")});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains(s("--remap-ids belongs to import")), describe(r));
}

QTEST_GUILESS_MAIN(tst_PortabilityCli)
#include "tst_portabilitycli.moc"
