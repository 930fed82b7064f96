#pragma once

#include "service/core/result.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QHash>

#include <optional>

namespace MemoryGraph {

/// Follows the HTTP/1.1 request framing of one connection the way QtHttpServer 6.4 reads it
/// (request line, header block up to the blank line, Content-Length body, next request), without
/// keeping the body. The listener feeds it every byte a client sends before the HTTP server
/// parses them, so a request can be refused from its header block: QtHttpServer itself would
/// buffer any declared body, of any size, and any header block, of any length.
///
/// Refused: a header block over maxHeaderBytes (431), more than 100 header fields (431), a
/// Content-Length over maxBodyBytes (413), any Transfer-Encoding (411: QtHttpServer decodes chunked
/// bodies into memory with no bound), and header lines QtHttpServer would misread (400).
class RequestScanner
{
public:
    struct Limits
    {
        qint64 maxHeaderBytes = 32768; ///< request line + header fields + blank line
        qint64 maxBodyBytes = 5 * 1024 * 1024;
    };

    /// QtHttpServer's header parser drops every field of a block with more fields than this.
    static constexpr int kMaxHeaderFields = 100;

    enum class Phase {
        BetweenRequests, ///< nothing of the next request yet (whitespace is skipped)
        Head,            ///< inside a request line or header block
        Body,            ///< counting down a declared Content-Length
    };

    explicit RequestScanner(Limits limits);

    /// Requests to `path` (exactly, whatever the query) may carry bodies up to maxBytes instead.
    void allowLargerBody(const QByteArray &path, qint64 maxBytes);

    /// Follows the next bytes the client sent. Returns the answer to give when the request
    /// they belong to must be refused; the connection should then close, so the scanner must
    /// not be fed again.
    std::optional<Error> feed(QByteArrayView bytes);

    Phase phase() const { return m_phase; }
    /// How many requests have begun (their first byte arrived) on this connection.
    qint64 requestsStarted() const { return m_requestsStarted; }
    /// How many body bytes have arrived on this connection.
    qint64 bodyBytesSeen() const { return m_bodyBytesSeen; }
    /// "METHOD /path" of the request being read, when its request line is complete.
    QByteArray requestLine() const { return m_requestLine; }

private:
    std::optional<Error> feedHead(char c);
    std::optional<Error> headComplete();
    std::optional<Error> checkFields(QByteArrayView fields);
    bool fragmentEndsHead() const;
    Error headerBlockTooLarge() const;
    /// The body cap of the request being read (its path may have a larger one).
    qint64 bodyLimit() const;

    Limits m_limits;
    QHash<QByteArray, qint64> m_bodyLimitByPath;
    Phase m_phase = Phase::BetweenRequests;
    QByteArray m_head; ///< request line + header block of the current request
    qsizetype m_fieldsStart
        = -1; ///< where the header block starts in m_head, -1 in the request line
    QByteArray m_requestLine;
    qint64 m_bodyRemaining = 0;
    qint64 m_requestsStarted = 0;
    qint64 m_bodyBytesSeen = 0;
};

} // namespace MemoryGraph
