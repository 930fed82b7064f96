#pragma once

#include <QString>

class QLabel;

namespace MemoryGraph::Ui {

/// The colour the console shows errors in.
QString errorColour();

/// Shows text on a status label, with the full text as its tooltip (it may be elided), in the
/// error colour when isError.
void showStatus(QLabel *label, const QString &text, bool isError);

} // namespace MemoryGraph::Ui
