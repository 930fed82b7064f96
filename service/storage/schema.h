#pragma once

#include <QString>
#include <QStringList>

#include <vector>

namespace MemoryGraph {

struct Migration
{
    QString name;
    QStringList statements;
    /// Rewrite the file (VACUUM) once the step has changed an existing store: for steps that
    /// leave rows sparse or many pages free, such as moving a column out of a table.
    bool compactAfter = false;
};

/// Ordered schema migrations; version N is element N-1. Append only, never edit a shipped step.
const std::vector<Migration> &schemaMigrations();

} // namespace MemoryGraph
