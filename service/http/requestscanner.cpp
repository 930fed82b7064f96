#include "service/http/requestscanner.h"

#include <QJsonObject>

namespace MemoryGraph {

namespace {

/// QtHttpServer skips these before a request line (leftovers of the previous request).
bool skippedBeforeRequest(char c)
{
    return c == '\v' || c == '\n' || c == '\r' || c == ' ' || c == '\t';
}

/// RFC 9110 token characters: what QtHttpServer's header parser accepts in a field name.
bool isTokenChar(char c)
{
    static constexpr QByteArrayView others("!#$%&'*+-.^_`|~");
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
           || others.contains(c);
}

bool isToken(QByteArrayView name)
{
    if (name.isEmpty())
        return false;
    for (char c : name) {
        if (!isTokenChar(c))
            return false;
    }
    return true;
}

bool isDigits(QByteArrayView text)
{
    if (text.isEmpty())
        return false;
    for (char c : text) {
        if (c < '0' || c > '9')
            return false;
    }
    return true;
}

QByteArrayView withoutCarriageReturn(QByteArrayView line)
{
    return line.endsWith('\r') ? line.chopped(1) : line;
}

/// "METHOD /path" from a request line, for the request log.
QByteArray methodAndPath(QByteArrayView line)
{
    const QList<QByteArray> parts = line.trimmed().toByteArray().split(' ');
    return parts.size() >= 2 ? parts.at(0) + ' ' + parts.at(1) : QByteArray();
}

} // namespace

RequestScanner::RequestScanner(Limits limits) : m_limits(limits) { }

void RequestScanner::allowLargerBody(const QByteArray &path, qint64 maxBytes)
{
    m_bodyLimitByPath.insert(path, maxBytes);
}

qint64 RequestScanner::bodyLimit() const
{
    // m_requestLine is "METHOD /path?query".
    const QByteArray target = m_requestLine.mid(m_requestLine.indexOf(' ') + 1);
    const qsizetype query = target.indexOf('?');
    return m_bodyLimitByPath.value(query < 0 ? target : target.left(query), m_limits.maxBodyBytes);
}

std::optional<Error> RequestScanner::feed(QByteArrayView bytes)
{
    while (!bytes.isEmpty()) {
        switch (m_phase) {
        case Phase::BetweenRequests:
            if (skippedBeforeRequest(bytes.front())) {
                bytes = bytes.sliced(1);
                continue;
            }
            m_phase = Phase::Head;
            m_head.clear();
            m_fieldsStart = -1;
            m_requestLine.clear();
            ++m_requestsStarted;
            continue;
        case Phase::Head: {
            // One line (or what has arrived of it) at a time: the head only ends at a newline.
            const qsizetype newline = bytes.indexOf('\n');
            const qsizetype take = newline < 0 ? bytes.size() : newline + 1;
            if (m_head.size() + take > m_limits.maxHeaderBytes)
                return headerBlockTooLarge();
            m_head.append(bytes.first(take));
            bytes = bytes.sliced(take);
            if (newline < 0)
                continue;
            if (m_fieldsStart < 0) {
                m_fieldsStart = m_head.size();
                m_requestLine = methodAndPath(m_head);
            } else if (fragmentEndsHead()) {
                if (auto refused = headComplete())
                    return refused;
            }
            continue;
        }
        case Phase::Body: {
            const qint64 take = qMin<qint64>(m_bodyRemaining, bytes.size());
            bytes = bytes.sliced(qsizetype(take));
            m_bodyRemaining -= take;
            m_bodyBytesSeen += take;
            if (m_bodyRemaining == 0)
                m_phase = Phase::BetweenRequests;
            continue;
        }
        }
    }
    return std::nullopt;
}

bool RequestScanner::fragmentEndsHead() const
{
    // The same test as QtHttpServer's header reader: a blank line after the last field, or no
    // fields at all.
    const QByteArrayView fields = QByteArrayView(m_head).sliced(m_fieldsStart);
    return fields.endsWith("\n\r\n") || fields.endsWith("\n\n") || fields == "\r\n"
           || fields == "\n";
}

std::optional<Error> RequestScanner::headComplete()
{
    if (auto refused = checkFields(QByteArrayView(m_head).sliced(m_fieldsStart)))
        return refused;
    m_head.clear();
    m_phase = m_bodyRemaining > 0 ? Phase::Body : Phase::BetweenRequests;
    return std::nullopt;
}

std::optional<Error> RequestScanner::checkFields(QByteArrayView fields)
{
    const QString headers = QStringLiteral("headers");
    int count = 0;
    bool transferEncoding = false;
    std::optional<QByteArray> contentLength;
    while (!fields.isEmpty()) {
        const qsizetype newline = fields.indexOf('\n');
        const qsizetype end = newline < 0 ? fields.size() : newline;
        const QByteArrayView line = withoutCarriageReturn(fields.first(end));
        fields = fields.sliced(qMin(end + 1, fields.size()));
        if (line.isEmpty())
            break; // the blank line that ends the block
        if (line.startsWith(' ') || line.startsWith('\t'))
            return Error::invalidField(headers,
                                       QStringLiteral("folded header lines are not accepted"));
        const qsizetype colon = line.indexOf(':');
        if (colon < 0 || !isToken(line.first(colon)))
            return Error::invalidField(
                headers,
                QStringLiteral("'%1' is not a 'name: value' header line")
                    .arg(QString::fromLatin1(line.first(qMin<qsizetype>(line.size(), 40)))));
        if (++count > kMaxHeaderFields)
            return Error::make(431, QStringLiteral("request_header_fields_too_large"),
                               QStringLiteral("a request may carry at most %1 header fields")
                                   .arg(kMaxHeaderFields),
                               {{QStringLiteral("max_fields"), kMaxHeaderFields}});
        const QByteArrayView name = line.first(colon);
        const QByteArray value = line.sliced(colon + 1).trimmed().toByteArray();
        if (name.compare("transfer-encoding", Qt::CaseInsensitive) == 0) {
            transferEncoding = true;
        } else if (name.compare("content-length", Qt::CaseInsensitive) == 0) {
            if (!isDigits(value))
                return Error::invalidField(QStringLiteral("headers.content-length"),
                                           QStringLiteral("must be a whole number of bytes"));
            if (contentLength && *contentLength != value)
                return Error::invalidField(QStringLiteral("headers.content-length"),
                                           QStringLiteral("is given twice with different values"));
            contentLength = value;
        }
    }
    if (transferEncoding)
        return Error::make(
            411, QStringLiteral("length_required"),
            QStringLiteral("send the request body with Content-Length; "
                           "Transfer-Encoding (chunked) is not accepted"),
            {{QStringLiteral("refused_header"), QStringLiteral("transfer-encoding")}});
    bool fits = false;
    const qint64 length = contentLength ? contentLength->toLongLong(&fits) : 0;
    const qint64 maxBody = bodyLimit();
    if (contentLength && (!fits || length > maxBody))
        return Error::make(413, QStringLiteral("payload_too_large"),
                           QStringLiteral("request body is larger than %1 bytes").arg(maxBody),
                           {{QStringLiteral("max_bytes"), maxBody}});
    m_bodyRemaining = length;
    return std::nullopt;
}

Error RequestScanner::headerBlockTooLarge() const
{
    return Error::make(431, QStringLiteral("request_header_fields_too_large"),
                       QStringLiteral("the request line and headers are larger than %1 bytes")
                           .arg(m_limits.maxHeaderBytes),
                       {{QStringLiteral("max_bytes"), m_limits.maxHeaderBytes}});
}

} // namespace MemoryGraph
