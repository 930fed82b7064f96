#pragma once

class QApplication;
class QPalette;

namespace MemoryGraph::Ui {

/// Switches the application to the Fusion style with a dark palette (--dark, or a dark desktop).
void applyDarkPalette(QApplication &app);

/// True when the palette's window colour is dark, i.e. the platform already runs a dark theme.
bool isDarkPalette(const QPalette &palette);

} // namespace MemoryGraph::Ui
