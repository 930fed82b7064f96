#pragma once

#include "service/core/jsonreader.h"

namespace MemoryGraph {

// Field readers shared by the request parsers. Each returns false once the reader holds an error.

/// Optional boolean; *out keeps its default when the field is absent.
bool readFlag(JsonReader &r, const char *key, bool *out);

/// Optional integer in [min, max]; *out keeps its default when the field is absent.
bool readInt(JsonReader &r, const char *key, int *out, int min, int max);

/// A UUID, lower-cased; absent leaves *out empty unless required.
bool readUuid(JsonReader &r, const char *key, QString *out, bool required = false);

/// input_text and input_sha256 of a state-changing request: at least one is required.
bool readCommitInput(JsonReader &r, QString *inputText, QString *inputSha256);

} // namespace MemoryGraph
