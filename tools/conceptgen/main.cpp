// memorygraph_conceptgen: turns the WordNet 3.0 database (Debian package wordnet-base) into the
// compact word-concept table the offline embedder compiles in (service/embedding/wordconcepts).
//
//   memorygraph_conceptgen <wordnet dir> <output file>
//
// Output, one record per line (fields separated by single spaces; '#' lines are comments and
// carry WordNet's licence, which must travel with every copy):
//   synsets <count>          then <count> lines: the indices of the synset's broader concepts
//                            (hypernyms and instance hypernyms), in file order: nouns, verbs
//   words <count>            then <count> lines: <word> <noun senses> <verb senses> <all>, the
//                            senses a comma-separated list of synset indices, most frequent
//                            first, "-" for none; <all> counts every sense WordNet lists (how
//                            common the word is, to choose between possible base forms); only
//                            single words of a-z and 0-9 are kept
//   exceptions <count>       then <count> lines: <inflected form> <base form> (noun and verb
//                            irregular forms such as "mice mouse", "went go")
// The ordering follows the database files, so the same WordNet gives a byte-identical table.
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QHash>
#include <QMap>
#include <QRegularExpression>
#include <QSaveFile>
#include <QStringList>
#include <QTextStream>

#include <cstdio>

namespace {

constexpr int kSensesPerPart = 2; // beyond the two most frequent senses it is mostly noise

struct Synset
{
    QStringList hypernymKeys; // "n01234567": part of speech + offset
};

struct Database
{
    QStringList licence;
    QStringList synsetKeys; // in output order
    QHash<QString, int> synsetIndex;
    QHash<QString, Synset> synsets;
    QMap<QString, QStringList> nounSenses; // word -> synset keys
    QMap<QString, QStringList> verbSenses;
    QHash<QString, int> senseCount; // noun and verb senses together
    QMap<QString, QString> exceptions;
};

bool fail(const QString &message)
{
    std::fprintf(stderr, "memorygraph_conceptgen: %s\n", qPrintable(message));
    return false;
}

bool isPlainWord(const QString &lemma)
{
    static const QRegularExpression plain(QStringLiteral("^[a-z0-9]+$"));
    return plain.match(lemma).hasMatch();
}

/// data.<part>: one synset a line, "offset lex_filenum ss_type w_cnt word lex_id ... p_cnt
/// pointer...". Licence lines start with two spaces.
bool readData(const QString &path, QChar part, Database &db)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text))
        return fail(QStringLiteral("cannot read %1").arg(path));
    const bool keepLicence = db.licence.isEmpty();
    while (!file.atEnd()) {
        const QByteArray raw = file.readLine();
        if (raw.isEmpty() || raw.at(0) < '0' || raw.at(0) > '9') // licence lines start "  "
            continue;
        const QString line = QString::fromLatin1(raw).trimmed();
        const QStringList f
            = line.section(QLatin1Char('|'), 0, 0).split(QLatin1Char(' '), Qt::SkipEmptyParts);
        bool ok = false;
        const int words = f.value(3).toInt(&ok, 16);
        int at = 4 + 2 * words;
        const int pointers = f.value(at).toInt();
        if (!ok || f.size() < at + 1 + 4 * pointers)
            return fail(QStringLiteral("%1: unexpected line %2").arg(path, line.left(40)));
        Synset s;
        for (int p = 0, i = at + 1; p < pointers; ++p, i += 4) {
            const QString symbol = f.at(i);
            if (symbol == QLatin1String("@") || symbol == QLatin1String("@i"))
                s.hypernymKeys << f.at(i + 2).at(0) + f.at(i + 1);
        }
        const QString key = part + f.at(0);
        db.synsetIndex.insert(key, int(db.synsetKeys.size()));
        db.synsetKeys << key;
        db.synsets.insert(key, s);
    }
    if (keepLicence) {
        file.seek(0);
        while (!file.atEnd()) {
            const QByteArray raw = file.readLine();
            if (!raw.startsWith("  "))
                break;
            // "  12 text": drop the line number
            db.licence << QString::fromLatin1(raw).trimmed().section(QLatin1Char(' '), 1);
        }
    }
    return true;
}

/// index.<part>: "lemma pos synset_cnt p_cnt [ptr_symbol...] sense_cnt tagsense_cnt offsets".
bool readIndex(const QString &path, QChar part, QMap<QString, QStringList> &senses,
               QHash<QString, int> &senseCount)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text))
        return fail(QStringLiteral("cannot read %1").arg(path));
    while (!file.atEnd()) {
        const QByteArray raw = file.readLine();
        if (raw.startsWith(' '))
            continue;
        const QStringList f = QString::fromLatin1(raw).split(QLatin1Char(' '), Qt::SkipEmptyParts);
        const int synsetCount = f.value(2).toInt();
        const int pointerCount = f.value(3).toInt();
        const int firstOffset = 4 + pointerCount + 2;
        if (f.size() < firstOffset + synsetCount)
            return fail(QStringLiteral("%1: unexpected line %2").arg(path, f.value(0)));
        if (!isPlainWord(f.at(0)))
            continue;
        QStringList keys;
        for (int i = 0; i < qMin(synsetCount, kSensesPerPart); ++i)
            keys << part + f.at(firstOffset + i).trimmed();
        senses.insert(f.at(0), keys);
        senseCount[f.at(0)] += synsetCount;
    }
    return true;
}

bool readExceptions(const QString &path, Database &db)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text))
        return fail(QStringLiteral("cannot read %1").arg(path));
    while (!file.atEnd()) {
        const QStringList f
            = QString::fromLatin1(file.readLine()).split(QLatin1Char(' '), Qt::SkipEmptyParts);
        if (f.size() >= 2 && isPlainWord(f.at(0)) && isPlainWord(f.at(1).trimmed())
            && !db.exceptions.contains(f.at(0)))
            db.exceptions.insert(f.at(0), f.at(1).trimmed());
    }
    return true;
}

QString indexList(const Database &db, const QStringList &keys)
{
    QStringList out;
    for (const QString &key : keys) {
        const auto at = db.synsetIndex.constFind(key);
        if (at != db.synsetIndex.cend())
            out << QString::number(*at);
    }
    return out.isEmpty() ? QStringLiteral("-") : out.join(QLatin1Char(','));
}

bool write(const Database &db, const QString &path)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Text))
        return fail(QStringLiteral("cannot write %1").arg(path));
    QTextStream out(&file);
    out << "# Word concepts for Memory Graph's offline embedder, generated from WordNet 3.0 by\n"
           "# memorygraph_conceptgen. WordNet's licence follows and applies to this table.\n";
    for (const QString &line : db.licence)
        out << "# " << line << '\n';
    out << "synsets " << db.synsetKeys.size() << '\n';
    for (const QString &key : db.synsetKeys) {
        QStringList up;
        for (const QString &h : db.synsets.value(key).hypernymKeys) {
            const auto at = db.synsetIndex.constFind(h);
            if (at != db.synsetIndex.cend())
                up << QString::number(*at);
        }
        out << up.join(QLatin1Char(' ')) << '\n';
    }
    QStringList words = db.nounSenses.keys();
    for (const QString &w : db.verbSenses.keys())
        words << w;
    words.sort();
    words.removeDuplicates();
    out << "words " << words.size() << '\n';
    for (const QString &w : std::as_const(words))
        out << w << ' ' << indexList(db, db.nounSenses.value(w)) << ' '
            << indexList(db, db.verbSenses.value(w)) << ' ' << db.senseCount.value(w) << '\n';
    out << "exceptions " << db.exceptions.size() << '\n';
    for (auto it = db.exceptions.cbegin(); it != db.exceptions.cend(); ++it)
        out << it.key() << ' ' << it.value() << '\n';
    out.flush();
    return file.commit() || fail(QStringLiteral("cannot write %1").arg(path));
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (args.size() != 3)
        return fail(QStringLiteral("usage: memorygraph_conceptgen <wordnet dir> <output file>")), 2;
    const QDir dir(args.at(1));
    Database db;
    const bool read = readData(dir.filePath(QStringLiteral("data.noun")), QLatin1Char('n'), db)
                      && readData(dir.filePath(QStringLiteral("data.verb")), QLatin1Char('v'), db)
                      && readIndex(dir.filePath(QStringLiteral("index.noun")), QLatin1Char('n'),
                                   db.nounSenses, db.senseCount)
                      && readIndex(dir.filePath(QStringLiteral("index.verb")), QLatin1Char('v'),
                                   db.verbSenses, db.senseCount)
                      && readExceptions(dir.filePath(QStringLiteral("noun.exc")), db)
                      && readExceptions(dir.filePath(QStringLiteral("verb.exc")), db);
    if (!read)
        return 1;
    if (!db.licence.join(QLatin1Char(' ')).contains(QLatin1String("WordNet 3.0")))
        return fail(QStringLiteral("%1 is not WordNet 3.0").arg(args.at(1))), 1;
    return write(db, args.at(2)) ? 0 : 1;
}
