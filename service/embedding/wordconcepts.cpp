#include "service/embedding/wordconcepts.h"

#include <QFile>
#include <QHash>
#include <QLoggingCategory>
#include <QSet>

#include <algorithm>
#include <array>
#include <utility>

Q_LOGGING_CATEGORY(lcConcepts, "memorygraph.service.concepts")

namespace MemoryGraph::WordConcepts {

namespace {

const QString kTablePath = QStringLiteral(":/memorygraph/wordnet-concepts.txt");

/// Lists of ints back to back, list i being ids[begin[i] .. begin[i + 1]): a few flat arrays
/// instead of one allocation per synset or word (the table takes about 4.5 MB, not 23).
struct PackedLists
{
    QVector<int> begin{0};
    QVector<int> ids;

    void close() { begin.append(int(ids.size())); }
    void add(const QByteArray &list, char separator)
    {
        for (const QByteArray &n : list.split(separator)) {
            if (!n.isEmpty() && n != "-")
                ids.append(n.toInt());
        }
    }
    int count() const { return int(begin.size()) - 1; }
    QVector<int> at(int i) const { return ids.mid(begin.at(i), begin.at(i + 1) - begin.at(i)); }
};

struct Table
{
    PackedLists broader;                      // synset -> its hypernyms
    QByteArray words;                         // the words, sorted, each followed by a NUL
    QVector<int> wordStarts;                  // word row -> its offset in words
    PackedLists senses;                       // word row -> its noun senses, then its verb senses
    QVector<int> senseCounts;                 // word row -> every sense WordNet lists
    QHash<QByteArray, QByteArray> exceptions; // irregular form -> base form

    /// The word's row, -1 when the table does not have it.
    int rowOf(const QByteArray &word) const
    {
        const auto less = [this](int start, const QByteArray &w) {
            return qstrcmp(words.constData() + start, w.constData()) < 0;
        };
        const auto it = std::lower_bound(wordStarts.cbegin(), wordStarts.cend(), word, less);
        return it != wordStarts.cend() && qstrcmp(words.constData() + *it, word.constData()) == 0
                   ? int(it - wordStarts.cbegin())
                   : -1;
    }
};

/// Reads "<section> <count>" and then count lines through readRow; false on a malformed table.
template<typename ReadRow> bool readSection(QFile &file, const char *section, ReadRow readRow)
{
    const QList<QByteArray> head = file.readLine().trimmed().split(' ');
    if (head.size() != 2 || head.at(0) != section)
        return false;
    const int count = head.at(1).toInt();
    for (int i = 0; i < count && !file.atEnd(); ++i) {
        if (!readRow(file.readLine().trimmed()))
            return false;
    }
    return true;
}

Table readTable()
{
    Table t;
    QFile file(kTablePath);
    if (!file.open(QIODevice::ReadOnly)) {
        qCWarning(lcConcepts) << "word concepts unavailable:" << file.errorString();
        return t;
    }
    while (file.peek(1) == "#")
        file.readLine();
    const bool ok = readSection(file, "synsets",
                                [&t](const QByteArray &row) {
                                    t.broader.add(row, ' ');
                                    t.broader.close();
                                    return true;
                                })
                    && readSection(file, "words",
                                   [&t](const QByteArray &row) {
                                       const QList<QByteArray> f = row.split(' ');
                                       if (f.size() != 4)
                                           return false;
                                       t.wordStarts.append(int(t.words.size()));
                                       t.words.append(f.at(0)).append('\0');
                                       t.senses.add(f.at(1), ',');
                                       t.senses.add(f.at(2), ',');
                                       t.senses.close();
                                       t.senseCounts.append(f.at(3).toInt());
                                       return true;
                                   })
                    && readSection(file, "exceptions", [&t](const QByteArray &row) {
                           const QList<QByteArray> f = row.split(' ');
                           if (f.size() != 2)
                               return false;
                           t.exceptions.insert(f.at(0), f.at(1));
                           return true;
                       });
    if (!ok) {
        qCWarning(lcConcepts) << "word concepts unavailable: malformed table";
        return {};
    }
    t.words.squeeze();
    return t;
}

const Table &table()
{
    static const Table loaded = readTable();
    return loaded;
}

/// Regular inflections back to a base form, as WordNet's own lookup does (its "morphy").
constexpr std::array<std::pair<const char *, const char *>, 14> kSuffixes{{
    {"ies", "y"},
    {"ses", "s"},
    {"xes", "x"},
    {"zes", "z"},
    {"ches", "ch"},
    {"shes", "sh"},
    {"men", "man"},
    {"es", "e"},
    {"es", ""},
    {"s", ""},
    {"ed", "e"},
    {"ed", ""},
    {"ing", ""},
    {"ing", "e"},
}};

/// The row of the word's base form: its irregular one, else the most common of the regular
/// ones WordNet knows ("deleting": delete, not delet; "singing": sing, not singe); -1 for none.
int baseFormOf(const Table &t, const QByteArray &word)
{
    if (auto base = t.exceptions.constFind(word); base != t.exceptions.cend()) {
        if (const int row = t.rowOf(*base); row >= 0)
            return row;
    }
    int best = -1;
    for (const auto &[suffix, replacement] : kSuffixes) {
        const qsizetype length = qsizetype(qstrlen(suffix));
        if (word.size() <= length + 1 || !word.endsWith(suffix))
            continue;
        const int row = t.rowOf(word.chopped(length) + replacement);
        if (row >= 0 && (best < 0 || t.senseCounts.at(row) > t.senseCounts.at(best)))
            best = row;
    }
    return best;
}

/// The senses the word may stand for: its own entry's and its base form's, since an inflected
/// form can be a word of its own ("meeting": the gathering, and a form of "meet").
QVector<int> sensesOf(const Table &t, const QByteArray &word)
{
    QVector<int> senses;
    if (const int row = t.rowOf(word); row >= 0)
        senses << t.senses.at(row);
    if (const int base = baseFormOf(t, word); base >= 0)
        senses << t.senses.at(base);
    return senses;
}

} // namespace

QVector<Concept> of(const QString &word)
{
    const Table &t = table();
    QVector<Concept> out;
    QSet<int> seen;
    // The table holds words of a-z and 0-9 only, so anything else simply matches nothing.
    QVector<int> level = sensesOf(t, word.toLatin1());
    for (int depth = 0; depth <= kMaxDepth && !level.isEmpty(); ++depth) {
        QVector<int> next;
        for (int id : std::as_const(level)) {
            if (id < 0 || id >= t.broader.count() || seen.contains(id))
                continue;
            seen.insert(id);
            out.append({id, depth});
            next << t.broader.at(id);
        }
        level = std::move(next);
    }
    return out;
}

int synsetCount()
{
    return table().broader.count();
}

} // namespace MemoryGraph::WordConcepts
