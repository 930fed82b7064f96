#include "service/rules/conditionmatcher.h"

#include <QVector>

namespace MemoryGraph::Rules {

namespace {

constexpr qsizetype kMaxPatternLength = 256;
constexpr int kMaxGroups = 32;
constexpr int kMaxQuantifiers = 24;

// Replaces every escape with the atom 'e' and every character class with the atom 'c', so that
// the structural scan below sees only real groups, quantifiers and wildcards. Returns false for
// back-references (\1.., \k<name>) anywhere and for a dangling escape or unterminated class.
bool blankEscapesAndClasses(const QString &pattern, QString *out)
{
    const qsizetype n = pattern.size();
    for (qsizetype i = 0; i < n; ++i) {
        const QChar c = pattern.at(i);
        if (c == u'\\') {
            if (i + 1 >= n)
                return false;
            const QChar next = pattern.at(i + 1);
            if (next >= u'1' && next <= u'9')
                return false;
            if (next == u'k' && i + 2 < n && pattern.at(i + 2) == u'<')
                return false;
            out->append(u'e');
            ++i;
        } else if (c == u'[') {
            // JS class syntax: the class ends at the first unescaped ']'.
            qsizetype j = i + 1;
            while (j < n && pattern.at(j) != u']') {
                if (pattern.at(j) == u'\\') {
                    if (j + 1 < n && pattern.at(j + 1) >= u'1' && pattern.at(j + 1) <= u'9')
                        return false;
                    ++j;
                }
                ++j;
            }
            if (j >= n)
                return false;
            out->append(u'c');
            i = j;
        } else {
            out->append(c);
        }
    }
    return true;
}

// Length of a {n}, {n,} or {n,m} quantifier starting at i, or 0 when '{' is a literal there.
qsizetype braceQuantifierLength(const QString &s, qsizetype i)
{
    qsizetype j = i + 1;
    const auto digits = [&]() {
        const qsizetype start = j;
        while (j < s.size() && s.at(j).isDigit())
            ++j;
        return j > start;
    };
    if (!digits())
        return 0;
    if (j < s.size() && s.at(j) == u',') {
        ++j;
        digits();
    }
    return (j < s.size() && s.at(j) == u'}') ? j - i + 1 : 0;
}

// Length of the quantifier at i (0 when there is none), including a lazy '?' suffix.
qsizetype quantifierLength(const QString &s, qsizetype i)
{
    if (i >= s.size())
        return 0;
    qsizetype len = 0;
    const QChar c = s.at(i);
    if (c == u'*' || c == u'+' || c == u'?')
        len = 1;
    else if (c == u'{')
        len = braceQuantifierLength(s, i);
    if (len > 0 && i + len < s.size() && s.at(i + len) == u'?')
        ++len;
    return len;
}

struct Group
{
    bool containsQuantifier = false;
    bool containsAlternation = false;
};

} // namespace

bool isSafeRegex(const QString &pattern)
{
    if (pattern.isEmpty() || pattern.size() > kMaxPatternLength)
        return false;
    QString s;
    if (!blankEscapesAndClasses(pattern, &s))
        return false;
    for (const char *lookaround : {"(?=", "(?!", "(?<=", "(?<!"}) {
        if (s.contains(QLatin1String(lookaround)))
            return false;
    }
    int wildcards = 0;
    for (qsizetype i = 0; i + 1 < s.size(); ++i) {
        if (s.at(i) == u'.' && (s.at(i + 1) == u'*' || s.at(i + 1) == u'+'))
            ++wildcards;
    }
    if (wildcards > 1)
        return false;

    int groups = 0;
    int quantifiers = 0;
    QVector<Group> stack{Group()}; // bottom entry is the whole pattern
    for (qsizetype i = 0; i < s.size();) {
        const QChar c = s.at(i);
        if (c == u'(') {
            if (++groups > kMaxGroups)
                return false;
            stack.append(Group());
            ++i;
            if (i < s.size() && s.at(i) == u'?')
                ++i; // group modifier such as (?: or (?<name>, not a quantifier
            continue;
        }
        if (c == u')') {
            if (stack.size() < 2)
                return false;
            const Group closed = stack.takeLast();
            const qsizetype q = quantifierLength(s, i + 1);
            if (q > 0 && (closed.containsQuantifier || closed.containsAlternation))
                return false; // (a+)+ or (a|b)* backtrack exponentially
            stack.last().containsQuantifier |= closed.containsQuantifier;
            i += 1;
            continue;
        }
        if (c == u'|')
            stack.last().containsAlternation = true;
        const qsizetype q = quantifierLength(s, i);
        if (q > 0) {
            if (++quantifiers > kMaxQuantifiers)
                return false;
            stack.last().containsQuantifier = true;
            i += q;
            continue;
        }
        ++i;
    }
    return stack.size() == 1;
}

} // namespace MemoryGraph::Rules
