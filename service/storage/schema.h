#pragma once

#include <QString>
#include <QStringList>

#include <vector>

namespace MemoryGraph {

struct Migration
{
    QString name;
    QStringList statements;
};

/// Ordered schema migrations; version N is element N-1. Append only, never edit a shipped step.
const std::vector<Migration> &schemaMigrations();

} // namespace MemoryGraph
