#pragma once

#include "service/core/result.h"

#include <QByteArray>
#include <QDateTime>

/// The spec's upstream embedding failures (§4.4) as Error values, plus the small parsers that
/// decide between them. Kept free of any network type so the mapping is testable on its own.
namespace MemoryGraph::UpstreamEmbedding {

constexpr int kRateLimitRetryAfterSec = 2; ///< when the provider sends no Retry-After
constexpr int kUnavailableRetryAfterSec = 1;
constexpr int kMaxRetryAfterSec = 3600; ///< a longer wait is better handled by an operator

/// 429 upstream_embedding_rate_limited with details.retry_after_sec.
Error rateLimited(int retryAfterSec, QJsonObject details = {});
/// 503 upstream_embedding_unavailable with details.retry_after_sec and details.reason.
Error unavailable(const QString &reason, const QString &message,
                  int retryAfterSec = kUnavailableRetryAfterSec, QJsonObject details = {});
/// 502 upstream_embedding_bad_response with details.reason (no retry: retrying will not help).
Error badResponse(const QString &reason, const QString &message, QJsonObject details = {});

/// Seconds to wait from a Retry-After header (delta seconds or an HTTP date) or, failing that,
/// a retry-after-ms header; fallback when neither parses. Clamped to 1..kMaxRetryAfterSec.
int retryAfterSeconds(const QByteArray &retryAfter, const QByteArray &retryAfterMs, int fallback,
                      const QDateTime &now = QDateTime::currentDateTimeUtc());

/// True when an error body says the caller is being throttled, whatever the status code.
bool mentionsRateLimit(const QByteArray &body);

/// Short machine-readable hints from an OpenAI-style error body ({"error": {"type", "code"}}):
/// upstream_error_type / upstream_error_code. Free text is never copied: providers echo
/// request fragments, and some echo part of the API key.
QJsonObject errorHints(const QByteArray &body);

/// Replaces every occurrence of secret in the message and in string details.
Error redacted(Error error, const QString &secret);

} // namespace MemoryGraph::UpstreamEmbedding
