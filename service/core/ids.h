#pragma once

#include <QString>

#include <optional>

namespace MemoryGraph {

/// Deterministic UUID (v5 in the product's own namespace) for a name.
QString stableUuid(const QString &name);

/// A fresh random UUID (v4), lowercase without braces.
QString randomUuid();

/// True for a canonical 8-4-4-4-12 hex UUID.
bool isUuid(const QString &text);

/// The isolation key used in hashes and derived ids: the scope itself for the default tenant,
/// "tenant:<tenant>::scope:<scope>" otherwise (spec §5.4).
QString scopeKey(const QString &tenantId, const QString &scope, const QString &defaultTenant);

/// memorygraph://<tenant>/<scope>/<kind>/<id>, each segment percent-encoded (DESIGN decision 5).
QString recordUri(const QString &tenantId, const QString &scope, const QString &kind,
                  const QString &id);

struct RecordUri
{
    QString tenantId;
    QString scope;
    QString kind;
    QString id;
};

/// Parses a memorygraph:// URI; nullopt when it is not one of ours.
std::optional<RecordUri> parseRecordUri(const QString &uri);

} // namespace MemoryGraph
