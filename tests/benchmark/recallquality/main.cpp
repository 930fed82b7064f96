// memorygraph_recallquality: how often recall_text puts the memories that answer a question
// among its seeds, on the annotated corpus next to this file, for each seed channel setting.
// Not a CTest test: it reports figures (see README.md in this folder and tests/benchmark).
#include "service/api/writerequest.h"
#include "service/memoryservice.h"
#include "tests/support/tempservice.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QSet>

#include <cstdio>

using namespace MemoryGraph;

namespace {

constexpr int kWriteBatch = 50;
constexpr int kTopK = 10;

struct Question
{
    QString id;
    QString text;
    QStringList answers;
    QString kind;
};

struct Corpus
{
    QJsonArray memories;
    QVector<Question> questions;
};

/// Sums of one setting's scores, overall and per question kind.
struct Scores
{
    int questions = 0;
    int hitAt5 = 0;
    int hitAt10 = 0;
    double recallAt10 = 0.0;

    void add(const QStringList &top, const QStringList &answers)
    {
        ++questions;
        int found = 0;
        bool inFive = false;
        for (const QString &answer : answers) {
            const qsizetype at = top.indexOf(answer);
            if (at >= 0 && at < kTopK)
                ++found;
            inFive = inFive || (at >= 0 && at < 5);
        }
        hitAt5 += inFive ? 1 : 0;
        hitAt10 += found > 0 ? 1 : 0;
        recallAt10 += answers.isEmpty() ? 0.0 : double(found) / double(answers.size());
    }
    double share(double n) const { return questions ? n / questions : 0.0; }
    QJsonObject toJson() const
    {
        return {{QStringLiteral("questions"), questions},
                {QStringLiteral("hit_at_5"), share(hitAt5)},
                {QStringLiteral("hit_at_10"), share(hitAt10)},
                {QStringLiteral("recall_at_10"), share(recallAt10)}};
    }
};

struct Run
{
    QString channels;
    Scores all;
    QMap<QString, Scores> byKind;
    QString error;
};

bool readCorpus(const QString &path, Corpus *corpus, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot read %1: %2").arg(path, file.errorString());
        return false;
    }
    const QJsonObject root = QJsonDocument::fromJson(file.readAll()).object();
    corpus->memories = root.value(QStringLiteral("memories")).toArray();
    for (const QJsonValue &v : root.value(QStringLiteral("questions")).toArray()) {
        const QJsonObject q = v.toObject();
        QStringList answers;
        for (const QJsonValue &a : q.value(QStringLiteral("answers")).toArray())
            answers << a.toString();
        corpus->questions.append({q.value(QStringLiteral("id")).toString(),
                                  q.value(QStringLiteral("text")).toString(), answers,
                                  q.value(QStringLiteral("kind")).toString()});
    }
    if (corpus->memories.isEmpty() || corpus->questions.isEmpty()) {
        *error = QStringLiteral("%1 holds no memories or no questions").arg(path);
        return false;
    }
    return true;
}

/// A memory as a shared node keyed by its corpus id; its vector comes from the service's
/// embedder, as it would for an agent that writes plain text.
QJsonObject nodeOf(const QJsonObject &memory)
{
    QJsonObject node{{QStringLiteral("client_id"), memory.value(QStringLiteral("id"))},
                     {QStringLiteral("type"), memory.value(QStringLiteral("type"))},
                     {QStringLiteral("title"), memory.value(QStringLiteral("title"))},
                     {QStringLiteral("text_summary"), memory.value(QStringLiteral("text"))},
                     {QStringLiteral("memory_lane"), QStringLiteral("shared")}};
    if (memory.contains(QStringLiteral("occurred_at")))
        node.insert(QStringLiteral("occurred_at"), memory.value(QStringLiteral("occurred_at")));
    return node;
}

bool loadMemories(MemoryService *service, const QJsonArray &memories, QString *error)
{
    for (qsizetype from = 0; from < memories.size(); from += kWriteBatch) {
        QJsonArray nodes;
        for (qsizetype i = from; i < qMin(from + kWriteBatch, memories.size()); ++i)
            nodes.append(nodeOf(memories.at(i).toObject()));
        auto request = WriteRequest::fromJson(Test::writeBody(nodes, {}, QStringLiteral("corpus")));
        if (!request) {
            *error = request.error().message;
            return false;
        }
        auto written = service->write(request.value(), RequestMeta{});
        if (!written) {
            *error = written.error().message;
            return false;
        }
    }
    if (!service->waitForEmbeddings(600000)) {
        *error = QStringLiteral("the embeddings did not finish");
        return false;
    }
    service->waitForIndexes();
    return true;
}

/// The corpus ids of the top seeds recall_text returns for the question.
QStringList topSeeds(MemoryService *service, const QString &text, QString *error)
{
    auto request = RecallRequest::fromJson(
        QJsonObject{{QStringLiteral("query_text"), text}, {QStringLiteral("limit"), kTopK}}, true,
        8000);
    if (!request) {
        *error = request.error().message;
        return {};
    }
    auto recalled = service->recallText(request.value(), RequestMeta{});
    if (!recalled) {
        *error = recalled.error().message;
        return {};
    }
    QStringList ids;
    for (const RecallSeed &s : recalled.value().seeds)
        ids << s.node.clientId;
    return ids;
}

Run measure(const Corpus &corpus, const QString &channels)
{
    Run run;
    run.channels = channels;
    QProcessEnvironment env;
    env.insert(QStringLiteral("EMBEDDING_PROVIDER"), QStringLiteral("local"));
    env.insert(QStringLiteral("MEMORY_RECALL_SEED_CHANNELS"), channels);
    Test::TempService svc(env);
    if (!svc.isValid()) {
        run.error = svc.errorText();
        return run;
    }
    if (!loadMemories(svc.service(), corpus.memories, &run.error))
        return run;
    for (const Question &q : corpus.questions) {
        const QStringList top = topSeeds(svc.service(), q.text, &run.error);
        if (!run.error.isEmpty())
            return run;
        run.all.add(top, q.answers);
        run.byKind[q.kind].add(top, q.answers);
    }
    return run;
}

void printRuns(const QVector<Run> &runs, const Corpus &corpus)
{
    std::printf("Recall quality: %lld memories, %lld questions; top %d seeds of recall_text, "
                "offline local embedder\n\n",
                static_cast<long long>(corpus.memories.size()),
                static_cast<long long>(corpus.questions.size()), kTopK);
    QStringList kinds;
    for (const Run &r : runs)
        kinds = r.byKind.keys();
    std::printf("%-10s %7s %7s %9s  |  hit@10 by kind:", "channels", "hit@5", "hit@10",
                "recall@10");
    for (const QString &kind : kinds)
        std::printf(" %s(%d)", qPrintable(kind), runs.first().byKind.value(kind).questions);
    std::printf("\n");
    for (const Run &r : runs) {
        if (!r.error.isEmpty()) {
            std::printf("%-10s failed: %s\n", qPrintable(r.channels), qPrintable(r.error));
            continue;
        }
        std::printf("%-10s %7.3f %7.3f %9.3f  |", qPrintable(r.channels), r.all.share(r.all.hitAt5),
                    r.all.share(r.all.hitAt10), r.all.share(r.all.recallAt10));
        for (const QString &kind : kinds) {
            const Scores &s = r.byKind.value(kind);
            std::printf(" %s %.3f", qPrintable(kind), s.share(s.hitAt10));
        }
        std::printf("\n");
    }
}

QJsonObject runsToJson(const QVector<Run> &runs)
{
    QJsonObject out;
    for (const Run &r : runs) {
        QJsonObject kinds;
        for (auto it = r.byKind.cbegin(); it != r.byKind.cend(); ++it)
            kinds.insert(it.key(), it.value().toJson());
        QJsonObject o = r.all.toJson();
        o.insert(QStringLiteral("by_kind"), kinds);
        if (!r.error.isEmpty())
            o.insert(QStringLiteral("error"), r.error);
        out.insert(r.channels, o);
    }
    return out;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Scores recall_text seeds against the annotated recall-quality corpus."));
    parser.addHelpOption();
    const QCommandLineOption corpusOption(
        QStringLiteral("corpus"),
        QStringLiteral("The corpus file (default: the one in the source tree)."),
        QStringLiteral("file"), QStringLiteral(MEMORYGRAPH_RECALLQUALITY_CORPUS));
    const QCommandLineOption channelsOption(
        QStringLiteral("channels"),
        QStringLiteral("Comma-separated MEMORY_RECALL_SEED_CHANNELS settings to compare "
                       "(default lexical,vector,concept,hybrid)."),
        QStringLiteral("list"), QStringLiteral("lexical,vector,concept,hybrid"));
    const QCommandLineOption jsonOption(QStringLiteral("json"),
                                        QStringLiteral("Also write the figures to this file."),
                                        QStringLiteral("file"));
    parser.addOptions({corpusOption, channelsOption, jsonOption});
    parser.process(app);

    Corpus corpus;
    QString error;
    if (!readCorpus(parser.value(corpusOption), &corpus, &error)) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 2;
    }
    QVector<Run> runs;
    for (const QString &channels : parser.value(channelsOption).split(QLatin1Char(',')))
        runs.append(measure(corpus, channels.trimmed()));
    printRuns(runs, corpus);
    if (parser.isSet(jsonOption)) {
        QFile out(parser.value(jsonOption));
        if (!out.open(QIODevice::WriteOnly)
            || out.write(QJsonDocument(runsToJson(runs)).toJson()) < 0) {
            std::fprintf(stderr, "cannot write %s\n", qPrintable(parser.value(jsonOption)));
            return 2;
        }
    }
    for (const Run &r : runs) {
        if (!r.error.isEmpty())
            return 1;
    }
    return 0;
}
