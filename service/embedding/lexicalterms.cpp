#include "service/embedding/lexicalterms.h"

#include <QSet>

#include <initializer_list>

namespace MemoryGraph::Lexical {

namespace {

bool isAsciiWord(const QString &word)
{
    for (QChar c : word) {
        if (c < QLatin1Char('a') || c > QLatin1Char('z'))
            return false;
    }
    return true;
}

bool isVowelAt(const QString &word, int i)
{
    switch (word.at(i).unicode()) {
    case 'a':
    case 'e':
    case 'i':
    case 'o':
    case 'u': return true;
    case 'y': // "try", "fly": y acts as the vowel after a consonant
        return i > 0 && !isVowelAt(word, i - 1);
    default: return false;
    }
}

bool hasVowel(const QString &word, int length)
{
    for (int i = 0; i < length; ++i) {
        if (isVowelAt(word, i))
            return true;
    }
    return false;
}

bool endsWithAny(const QString &word, std::initializer_list<const char *> suffixes)
{
    for (const char *s : suffixes) {
        if (word.endsWith(QLatin1String(s)))
            return true;
    }
    return false;
}

// Strips an -ed/-ing ending only when a plausible stem with a vowel remains, so "red", "bed",
// "thing" and "string" survive intact.
bool chopVerbEnding(QString &word, int suffixLength)
{
    const int rest = word.size() - suffixLength;
    if (rest < 2 || !hasVowel(word, rest))
        return false;
    word.chop(suffixLength);
    return true;
}

// Words whose "-ed"/"-ing" belongs to the root; stripping it would split them from their own
// plurals ("embeds" -> "embed", but "embed" -> "emb"). Short on purpose: the character trigrams
// already soften the misses of a rule-based stemmer.
bool isRootWord(const QString &word)
{
    static const QSet<QString> words{
        QStringLiteral("embed"),     QStringLiteral("hundred"),  QStringLiteral("sacred"),
        QStringLiteral("naked"),     QStringLiteral("wicked"),   QStringLiteral("morning"),
        QStringLiteral("evening"),   QStringLiteral("during"),   QStringLiteral("nothing"),
        QStringLiteral("something"), QStringLiteral("anything"), QStringLiteral("everything"),
        QStringLiteral("ceiling")};
    return words.contains(word);
}

bool isSpaceless(char32_t ucs4)
{
    const QChar::Script script = QChar::script(ucs4);
    return script == QChar::Script_Han || script == QChar::Script_Hiragana
           || script == QChar::Script_Katakana;
}

bool isApostrophe(char32_t ucs4)
{
    return ucs4 == U'\'' || ucs4 == U'\u2019';
}

void addWord(QStringList &out, const QString &word)
{
    if (!word.isEmpty() && !isStopWord(word))
        out.append(word);
}

} // namespace

bool isStopWord(const QString &word)
{
    static const QSet<QString> words = [] {
        const char *const list[]
            = {"a",     "about", "also",   "an",     "and",  "are",   "as",     "at",   "be",
               "been",  "being", "but",    "by",     "can",  "could", "did",    "do",   "does",
               "doing", "for",   "from",   "had",    "has",  "have",  "having", "he",   "her",
               "here",  "hers",  "him",    "his",    "how",  "i",     "if",     "in",   "into",
               "is",    "it",    "its",    "just",   "me",   "my",    "of",     "on",   "or",
               "our",   "ours",  "she",    "should", "so",   "some",  "such",   "than", "that",
               "the",   "their", "theirs", "them",   "then", "there", "these",  "they", "this",
               "those", "to",    "too",    "us",     "very", "was",   "we",     "were", "what",
               "when",  "where", "which",  "while",  "who",  "whom",  "why",    "will", "with",
               "would", "you",   "your",   "yours"};
        QSet<QString> set;
        for (const char *w : list)
            set.insert(QString::fromLatin1(w));
        return set;
    }();
    return words.contains(word);
}

QString stem(const QString &input)
{
    QString w = input;
    if (w.size() < 3 || !isAsciiWord(w))
        return w;

    // Plurals and third person singular.
    if (w.endsWith(QLatin1String("sses"))) {
        w.chop(2);
    } else if (w.endsWith(QLatin1String("ies")) && w.size() > 4) {
        w.chop(2); // "queries" -> "queri", matching "query" -> "queri" below
    } else if (endsWithAny(w, {"ches", "shes", "xes", "zes"}) && w.size() > 4) {
        w.chop(2);
    } else if (w.endsWith(QLatin1Char('s')) && w.size() > 3
               && !endsWithAny(w, {"ss", "us", "is"})) {
        w.chop(1);
    }

    if (isRootWord(w))
        return w;

    // Past tense and progressive. "-eed" is left alone so "need" and "speed" keep their shape.
    if (w.endsWith(QLatin1String("ied")) && w.size() > 4)
        w.chop(2);
    else if (w.endsWith(QLatin1String("ing")))
        chopVerbEnding(w, 3);
    else if (w.endsWith(QLatin1String("ed")) && !w.endsWith(QLatin1String("eed")))
        chopVerbEnding(w, 2);

    // Normalise the endings that inflection changes, for every word alike, so the bare form
    // and the inflected form meet: "like"/"liked", "study"/"studied", "stop"/"stopped".
    if (w.size() >= 3 && w.endsWith(QLatin1Char('y')) && isVowelAt(w, w.size() - 1))
        w[w.size() - 1] = QLatin1Char('i');
    if (w.size() >= 3 && w.endsWith(QLatin1Char('e')))
        w.chop(1);
    if (w.size() >= 3) {
        const QChar last = w.at(w.size() - 1);
        if (last == w.at(w.size() - 2) && !isVowelAt(w, w.size() - 1) && last != QLatin1Char('l')
            && last != QLatin1Char('s') && last != QLatin1Char('z'))
            w.chop(1);
    }
    return w;
}

QStringList terms(const QString &text)
{
    QStringList out = words(text);
    for (QString &word : out)
        word = stem(word);
    return out;
}

QStringList words(const QString &text)
{
    // NFKC folds compatibility forms (full-width letters, ligatures) before lower-casing.
    const QString folded = text.normalized(QString::NormalizationForm_KC).toLower();
    const QList<uint> points = folded.toUcs4();

    QStringList out;
    QString word;
    for (int i = 0; i < points.size(); ++i) {
        const char32_t c = points.at(i);
        if (isSpaceless(c)) {
            addWord(out, word);
            word.clear();
            addWord(out, QString::fromUcs4(&c, 1));
        } else if (QChar::isLetterOrNumber(c) || (QChar::isMark(c) && !word.isEmpty())) {
            word.append(QString::fromUcs4(&c, 1));
        } else if (isApostrophe(c) && !word.isEmpty() && i + 1 < points.size()
                   && QChar::isLetter(char32_t(points.at(i + 1)))) {
            continue; // "don't" -> "dont", "user's" -> "users"
        } else {
            addWord(out, word);
            word.clear();
        }
    }
    addWord(out, word);
    return out;
}

} // namespace MemoryGraph::Lexical
