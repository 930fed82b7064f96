#pragma once

#include <QByteArray>
#include <QByteArrayView>

#include <memory>

namespace MemoryGraph {

/// Incremental SHA-256 for large files (vector indexes of hundreds of MB). OpenSSL's
/// implementation uses the CPU's SHA extensions and is about ten times faster than
/// QCryptographicHash, which decides how long a cold start waits for its first recall.
class Sha256Stream
{
public:
    Sha256Stream();
    ~Sha256Stream();

    Sha256Stream(const Sha256Stream &) = delete;
    Sha256Stream &operator=(const Sha256Stream &) = delete;

    void addData(QByteArrayView data);
    /// The 32-byte digest; the stream cannot be fed afterwards.
    QByteArray result();

private:
    struct Context;
    std::unique_ptr<Context> m_context;
};

} // namespace MemoryGraph
