#pragma once

#include "service/core/result.h"

#include <QJsonObject>
#include <QJsonValue>

/// The PolicyPatch a rule contributes (then_json, spec §2.8, reference §2.2).
namespace MemoryGraph::Rules {

/// Maximum entries of tool.allow / tool.deny / tool.prefer.
constexpr int kMaxToolListSize = 100;

/// Strict schema check: top level only output / tool / extensions; output {format: json | text |
/// markdown, strict: bool}; tool {allow, deny, prefer}, each an array of 0..100 non-empty
/// strings; extensions any object. Unknown keys anywhere in output / tool / top level are
/// rejected. A missing (undefined) then_json is the default {}. The error is 400
/// invalid_request naming the path relative to the patch, e.g. "tool.allow[2]".
Result<QJsonObject> validatePolicyPatch(const QJsonValue &thenJson);

} // namespace MemoryGraph::Rules
