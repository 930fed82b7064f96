#include "service/rules/conditionmatcher.h"

#include <QCache>
#include <QMutex>

namespace MemoryGraph::Rules {

namespace {

constexpr int kCachedPatterns = 1024;
constexpr qsizetype kCacheablePatternLength = 256; // isSafeRegex refuses longer ones cheaply

struct Compiled
{
    QRegularExpression regex;
    bool usable = false; ///< passed isSafeRegex and compiled
};

struct RegexCache
{
    QMutex mutex;
    QCache<QString, Compiled> entries{kCachedPatterns};
};

RegexCache &cache()
{
    static RegexCache instance;
    return instance;
}

Compiled compile(const QString &pattern)
{
    Compiled c;
    if (!isSafeRegex(pattern))
        return c;
    c.regex = QRegularExpression(pattern);
    c.usable = c.regex.isValid(); // isValid() compiles (and JIT-compiles) the pattern here, once
    return c;
}

std::optional<QRegularExpression> usable(const Compiled &c)
{
    return c.usable ? std::optional<QRegularExpression>(c.regex) : std::nullopt;
}

} // namespace

std::optional<QRegularExpression> compiledRegex(const QString &pattern)
{
    if (pattern.size() > kCacheablePatternLength)
        return usable(compile(pattern));
    RegexCache &c = cache();
    {
        QMutexLocker lock(&c.mutex);
        if (const Compiled *hit = c.entries.object(pattern))
            return usable(*hit); // a copy shares the compiled program (thread-safe to match)
    }
    // Compiled outside the lock; two threads racing on a new pattern merely compile it twice.
    const Compiled fresh = compile(pattern);
    QMutexLocker lock(&c.mutex);
    c.entries.insert(pattern, new Compiled(fresh));
    return usable(fresh);
}

QString regexSubject(const QString &text)
{
    if (text.size() <= kMaxRegexSubjectLength)
        return text;
    qsizetype length = kMaxRegexSubjectLength;
    if (text.at(length - 1).isHighSurrogate())
        --length; // never split a surrogate pair: PCRE refuses invalid UTF-16
    return text.left(length);
}

} // namespace MemoryGraph::Rules
