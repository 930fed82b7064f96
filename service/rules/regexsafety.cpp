#include "service/rules/conditionmatcher.h"

#include <bitset>

namespace MemoryGraph::Rules {

namespace {

constexpr qsizetype kMaxPatternLength = 256;
constexpr int kMaxGroups = 32;
constexpr int kMaxQuantifiers = 24;
constexpr int kUnbounded = -1;
// A counted repeat {n,m} tries up to m - n lengths at every position it is reached from, and
// the work grows with that span: \w{0,2000}\d takes about 50 ms on 4096 characters.
constexpr int kMaxCountedSpan = 16;
constexpr int kMaxCount = 256; // {n} and {n,m} bounds: PCRE copies the repeated item n times

/// The characters an atom may match: exact for ASCII, one flag for everything beyond. Sets only
/// need to answer "can these two atoms match the same character?", so they err on "yes".
struct CharSet
{
    std::bitset<128> ascii;
    bool nonAscii = false;

    static CharSet any()
    {
        CharSet s;
        s.ascii.set();
        s.nonAscii = true;
        return s;
    }
    static CharSet range(char16_t from, char16_t to)
    {
        CharSet s;
        for (char16_t c = from; c <= to && c < 128; ++c)
            s |= literal(QChar(c));
        s.nonAscii = to >= 128;
        return s;
    }
    /// One literal character, both cases: an inline (?i) may make the pattern case-blind.
    static CharSet literal(QChar c)
    {
        CharSet s;
        if (c.unicode() >= 128) {
            s.nonAscii = true;
            return s;
        }
        s.ascii.set(c.unicode());
        s.ascii.set(c.toLower().unicode());
        s.ascii.set(c.toUpper().unicode());
        return s;
    }
    CharSet complement() const
    {
        CharSet s;
        s.ascii = ~ascii;
        s.nonAscii = true;
        return s;
    }
    CharSet &operator|=(const CharSet &other)
    {
        ascii |= other.ascii;
        nonAscii = nonAscii || other.nonAscii;
        return *this;
    }
    bool overlaps(const CharSet &other) const
    {
        return (ascii & other.ascii).any() || (nonAscii && other.nonAscii);
    }
};

CharSet digits()
{
    return CharSet::range(u'0', u'9');
}

CharSet wordChars()
{
    CharSet s = digits();
    s |= CharSet::range(u'a', u'z');
    s |= CharSet::range(u'A', u'Z');
    s |= CharSet::literal(u'_');
    return s;
}

CharSet spaces()
{
    CharSet s;
    for (char16_t c : {u' ', u'\t', u'\n', u'\v', u'\f', u'\r'})
        s.ascii.set(c);
    return s;
}

struct Quantifier
{
    int min = 1;
    int max = 1; ///< kUnbounded for *, + and {n,}
    bool present = false;

    /// Repeats with enough freedom to split a run of characters many ways. A span of one ('?',
    /// {1,2}) at most doubles the work and is treated as optional, not repeating.
    bool repeats() const { return present && (max == kUnbounded || max - min > 1); }
    bool optional() const { return present && min == 0 && !repeats(); }
};

/// What a parsed branch, group or sequence tells its parent.
struct Summary
{
    CharSet chars; ///< every character it may consume
    CharSet reach; ///< repeated characters that may still run on into what follows
    bool hasQuantifier = false;
    bool hasAlternation = false;
};

/// Recursive-descent scan of a JavaScript-style pattern that refuses constructs which can make a
/// backtracking matcher take exponential or high-polynomial time:
///  - back-references, look-around, recursion, verbs and other exotic groups;
///  - a quantified group holding a quantifier or an alternation: (a+)+, (a|a)*, (\w+\s?)+;
///  - two repeated atoms that can match the same character with nothing in between that must
///    consume a character outside them: \d+\d+, a*a*, .*.*, \w+x?\d+, \w+x\w+;
///  - counted repeats with large bounds or a wide span: a{1,1000}, .{0,2000}.
class SafetyScanner
{
public:
    explicit SafetyScanner(const QString &pattern) : m_s(pattern) { }

    bool scan()
    {
        alternation(CharSet());
        return m_safe && m_pos == m_s.size(); // stopped early: an unbalanced ')'
    }

private:
    bool fail()
    {
        m_safe = false;
        return false;
    }
    bool atEnd() const { return m_pos >= m_s.size(); }
    QChar peek(qsizetype ahead = 0) const
    {
        return m_pos + ahead < m_s.size() ? m_s.at(m_pos + ahead) : QChar();
    }

    Summary alternation(const CharSet &reachIn)
    {
        Summary all = sequence(reachIn);
        while (m_safe && peek() == u'|') {
            ++m_pos;
            const Summary branch = sequence(reachIn);
            all.chars |= branch.chars;
            all.reach |= branch.reach;
            all.hasQuantifier = all.hasQuantifier || branch.hasQuantifier;
            all.hasAlternation = true;
        }
        return all;
    }

    Summary sequence(const CharSet &reachIn)
    {
        Summary seq;
        seq.reach = reachIn;
        while (m_safe && !atEnd() && peek() != u'|' && peek() != u')') {
            if (!item(&seq))
                break;
        }
        return seq;
    }

    /// One atom or group and its quantifier, folded into seq.
    bool item(Summary *seq)
    {
        const CharSet entryReach = seq->reach;
        bool anchor = false;
        bool wildcard = false;
        Summary inner;
        const bool isGroup = peek() == u'(';
        if (isGroup) {
            if (!group(entryReach, &inner))
                return false;
        } else if (!atom(&inner.chars, &anchor, &wildcard)) {
            return false;
        }
        const Quantifier q = quantifier();
        if (!m_safe)
            return false;
        if (anchor)
            return q.present ? fail() : true; // ^, $, \b: zero-width, nothing to repeat
        if (q.present) {
            if (++m_quantifiers > kMaxQuantifiers)
                return fail();
            if (inner.hasQuantifier || inner.hasAlternation)
                return fail(); // nested quantifier or quantified alternation
            if (wildcard && q.max == kUnbounded && ++m_wildcards > 1)
                return fail(); // a second .* or .+
        }
        seq->chars |= inner.chars;
        seq->hasQuantifier = seq->hasQuantifier || inner.hasQuantifier || q.present;
        seq->hasAlternation = seq->hasAlternation || inner.hasAlternation;
        seq->reach = reachAfter(entryReach, inner, q, isGroup);
        return m_safe;
    }

    /// Which repeated characters can still run on after this item. A run ends at a character
    /// that the item must consume and the run cannot.
    CharSet reachAfter(const CharSet &entryReach, const Summary &item, const Quantifier &q,
                       bool isGroup)
    {
        if (q.repeats()) {
            if (item.chars.overlaps(entryReach)) {
                fail(); // two repeats competing for the same characters
                return entryReach;
            }
            if (q.min >= 1)
                return item.chars;
            CharSet reach = entryReach;
            reach |= item.chars;
            return reach;
        }
        if (q.optional())
            return entryReach; // may be skipped, so it separates nothing
        if (isGroup)
            return item.reach; // the group's content continued the sequence
        return item.chars.overlaps(entryReach) ? entryReach : CharSet();
    }

    bool group(const CharSet &entryReach, Summary *out)
    {
        ++m_pos; // '('
        if (++m_groups > kMaxGroups)
            return fail();
        if (!groupModifier())
            return fail();
        *out = alternation(entryReach);
        if (!m_safe || peek() != u')')
            return fail();
        ++m_pos;
        return true;
    }

    /// Accepts (, (?:, (?<name>, (?P<name>, (?'name' and inline flags (?i) / (?i: ; refuses
    /// look-around, atomic groups, recursion, conditionals, callouts, comments and verbs.
    bool groupModifier()
    {
        if (peek() == u'*')
            return false; // (*VERB)
        if (peek() != u'?')
            return true;
        const QChar next = peek(1);
        if (next == u':') {
            m_pos += 2;
            return true;
        }
        if (next == u'\'' || (next == u'<' && peek(2).isLetter())
            || (next == u'P' && peek(2) == u'<')) {
            const QChar close = next == u'\'' ? u'\'' : u'>';
            const qsizetype end = m_s.indexOf(close, m_pos + 2);
            if (end < 0)
                return false;
            m_pos = end + 1;
            return true;
        }
        qsizetype j = m_pos + 1;
        while (j < m_s.size() && QStringLiteral("imsnU-").contains(m_s.at(j)))
            ++j;
        if (j == m_pos + 1 || j >= m_s.size())
            return false;
        if (m_s.at(j) == u')') {
            // (?i) alone: a zero-width flag switch; step back onto ')' so group() closes it.
            m_pos = j;
            return true;
        }
        if (m_s.at(j) != u':')
            return false;
        m_pos = j + 1;
        return true;
    }

    bool atom(CharSet *chars, bool *anchor, bool *wildcard)
    {
        const QChar c = peek();
        if (c == u'\\')
            return escape(chars, anchor, /*inClass=*/false);
        if (c == u'[')
            return charClass(chars);
        if (c == u'*' || c == u'+' || c == u'?' || (c == u'{' && braceLength(m_pos) > 0))
            return fail(); // a quantifier with nothing to repeat
        ++m_pos;
        if (c == u'^' || c == u'$') {
            *anchor = true;
            return true;
        }
        if (c == u'.') {
            *chars = CharSet::any();
            *wildcard = true;
            return true;
        }
        *chars = CharSet::literal(c);
        return true;
    }

    /// \x at m_pos. Back-references, named references, subroutine calls and quoting are refused.
    bool escape(CharSet *chars, bool *anchor, bool inClass)
    {
        if (m_pos + 1 >= m_s.size())
            return fail();
        const QChar e = m_s.at(m_pos + 1);
        m_pos += 2;
        if (e.isDigit() && e != u'0')
            return fail(); // \1.. back-reference
        switch (e.unicode()) {
        case u'k':
        case u'g':
        case u'Q':
        case u'E':
        case u'K': return fail();
        case u'd': *chars = digits(); return true;
        case u'D': *chars = digits().complement(); return true;
        case u'w': *chars = wordChars(); return true;
        case u'W': *chars = wordChars().complement(); return true;
        case u's': *chars = spaces(); return true;
        case u'S': *chars = spaces().complement(); return true;
        case u't': *chars = CharSet::literal(u'\t'); return true;
        case u'n': *chars = CharSet::literal(u'\n'); return true;
        case u'r': *chars = CharSet::literal(u'\r'); return true;
        case u'f': *chars = CharSet::literal(u'\f'); return true;
        case u'0': *chars = CharSet::literal(QChar(0)); return true;
        case u'b':
            if (inClass) {
                *chars = CharSet::literal(QChar(8));
                return true;
            }
            *anchor = true;
            return true;
        case u'B':
        case u'A':
        case u'z':
        case u'Z':
        case u'G':
            if (inClass)
                return fail();
            *anchor = true;
            return true;
        default: break;
        }
        // \x41, \u0041, \p{L}, \v, \h, ...: some class or code point; assume it may match anything.
        *chars = e.isLetterOrNumber() ? CharSet::any() : CharSet::literal(e);
        return true;
    }

    /// [...] in JavaScript syntax: the class ends at the first unescaped ']'.
    bool charClass(CharSet *chars)
    {
        ++m_pos; // '['
        const bool negated = peek() == u'^';
        if (negated)
            ++m_pos;
        CharSet set;
        bool previousIsChar = false;
        QChar previous;
        while (!atEnd() && peek() != u']') {
            if (peek() == u'[' && peek(1) == u':') {
                set = CharSet::any(); // POSIX [:alpha:]: not worth modelling
                const qsizetype end = m_s.indexOf(QStringLiteral(":]"), m_pos);
                if (end < 0)
                    return fail();
                m_pos = end + 2;
                previousIsChar = false;
                continue;
            }
            if (peek() == u'-' && previousIsChar && peek(1) != u']' && !peek(1).isNull()) {
                ++m_pos;
                QChar last = peek();
                if (last == u'\\') {
                    CharSet escaped;
                    bool ignored = false;
                    if (!escape(&escaped, &ignored, /*inClass=*/true))
                        return false;
                    set = CharSet::any(); // a range to an escape: keep it simple
                } else {
                    ++m_pos;
                    if (last < previous)
                        return fail();
                    set |= CharSet::range(previous.unicode(), last.unicode());
                    set |= CharSet::literal(previous);
                    set |= CharSet::literal(last);
                }
                previousIsChar = false;
                continue;
            }
            if (peek() == u'\\') {
                CharSet escaped;
                bool ignored = false;
                const QChar escapedChar = peek(1);
                if (!escape(&escaped, &ignored, /*inClass=*/true))
                    return false;
                set |= escaped;
                previousIsChar = !escapedChar.isLetterOrNumber();
                previous = escapedChar;
                continue;
            }
            previous = peek();
            previousIsChar = true;
            set |= CharSet::literal(previous);
            ++m_pos;
        }
        if (atEnd())
            return fail(); // unterminated class
        ++m_pos;           // ']'
        *chars = negated ? set.complement() : set;
        return true;
    }

    /// Length of a {n}, {n,} or {n,m} at i, or 0 when '{' is a literal there.
    qsizetype braceLength(qsizetype i) const
    {
        qsizetype j = i + 1;
        const auto digitsAt = [&]() {
            const qsizetype start = j;
            while (j < m_s.size() && m_s.at(j).isDigit())
                ++j;
            return j > start;
        };
        if (!digitsAt())
            return 0;
        if (j < m_s.size() && m_s.at(j) == u',') {
            ++j;
            digitsAt();
        }
        return (j < m_s.size() && m_s.at(j) == u'}') ? j - i + 1 : 0;
    }

    /// The quantifier at m_pos (not present when there is none), with a lazy '?' or possessive
    /// '+' suffix.
    Quantifier quantifier()
    {
        Quantifier q;
        const QChar c = peek();
        if (c == u'*' || c == u'+' || c == u'?') {
            q = {c == u'+' ? 1 : 0, c == u'?' ? 1 : kUnbounded, true};
            ++m_pos;
        } else if (c == u'{') {
            const qsizetype len = braceLength(m_pos);
            if (len == 0)
                return q;
            const QString body = m_s.mid(m_pos + 1, len - 2);
            const qsizetype comma = body.indexOf(u',');
            q.present = true;
            q.min = qMin(body.left(comma < 0 ? body.size() : comma).toInt(), 65535);
            q.max = comma < 0
                        ? q.min
                        : (comma == body.size() - 1 ? kUnbounded
                                                    : qMin(body.mid(comma + 1).toInt(), 65535));
            m_pos += len;
            const bool bounded = q.max != kUnbounded;
            if (q.min > kMaxCount
                || (bounded && (q.max > kMaxCount || q.max - q.min > kMaxCountedSpan)))
                fail();
        }
        if (q.present && (peek() == u'?' || peek() == u'+'))
            ++m_pos;
        return q;
    }

    const QString &m_s;
    qsizetype m_pos = 0;
    int m_groups = 0;
    int m_quantifiers = 0;
    int m_wildcards = 0;
    bool m_safe = true;
};

} // namespace

bool isSafeRegex(const QString &pattern)
{
    if (pattern.isEmpty() || pattern.size() > kMaxPatternLength)
        return false;
    return SafetyScanner(pattern).scan();
}

} // namespace MemoryGraph::Rules
