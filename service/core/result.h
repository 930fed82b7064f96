#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QString>

#include <optional>
#include <utility>

namespace MemoryGraph {

/// An error that crosses a module boundary as a value: HTTP status, stable code, text, details.
struct Error
{
    int status = 400;
    QString code;
    QString message;
    QJsonObject details;

    /// 400 invalid_request naming the offending field in details.issues[{path, message}].
    static Error invalidField(const QString &path, const QString &message);
    static Error make(int status, const QString &code, const QString &message,
                      const QJsonObject &details = {});
    static Error notFound(const QString &message, const QJsonObject &details = {});
    static Error internal(const QString &message);
    /// A long operation stopped because its ProgressCallback returned false: code `cancelled`.
    static Error cancelled(const QString &message);
};

/// Either a value or an Error. Never throws.
template<typename T> class [[nodiscard]] Result
{
public:
    Result(T value) : m_value(std::move(value)) { }
    Result(Error error) : m_error(std::move(error)) { }

    bool ok() const { return m_value.has_value(); }
    explicit operator bool() const { return ok(); }
    const T &value() const & { return *m_value; }
    T &value() & { return *m_value; }
    T &&value() && { return std::move(*m_value); }
    const Error &error() const { return *m_error; }

private:
    std::optional<T> m_value;
    std::optional<Error> m_error;
};

template<> class [[nodiscard]] Result<void>
{
public:
    Result() = default;
    Result(Error error) : m_error(std::move(error)) { }

    bool ok() const { return !m_error.has_value(); }
    explicit operator bool() const { return ok(); }
    const Error &error() const { return *m_error; }

private:
    std::optional<Error> m_error;
};

} // namespace MemoryGraph
