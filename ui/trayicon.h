#pragma once

#include <QObject>

#include <memory>

class QAction;
class QMenu;
class QSystemTrayIcon;

namespace MemoryGraph::Ui {

class MainWindow;

/// The system tray icon of a window that keeps serving after it is closed. Its menu shows the
/// address agents use and the requests served so far (both live, from the Server page), and
/// offers Open Memory Graph (also a click on the icon), Pause / Resume serving (the Server
/// page's Stop / Start) and Quit (the window's real quit). The window must outlive it.
class TrayIcon : public QObject
{
    Q_OBJECT
public:
    explicit TrayIcon(MainWindow *window, QObject *parent = nullptr);
    ~TrayIcon() override;

    /// Shows the icon when the desktop has a system tray, also one that appeared after start.
    /// True when the icon now sits in a tray: then closing the window may hide it there.
    bool ensureVisible();

    QMenu *menu() const { return m_menu.get(); }
    QAction *addressAction() const { return m_addressAction; }
    QAction *requestCountAction() const { return m_countAction; }
    QAction *openAction() const { return m_openAction; }
    QAction *pauseAction() const { return m_pauseAction; }
    QAction *quitAction() const { return m_quitAction; }
    /// The icon's tooltip (also set when no tray shows it).
    QString toolTip() const;

public Q_SLOTS:
    /// The one-time notice after the first close into the tray.
    void showCloseNotice();

private:
    void createMenu();
    void refreshState();
    void refreshCount(qint64 total);
    void togglePause();

    MainWindow *m_window;
    std::unique_ptr<QMenu> m_menu; ///< no parent widget: the window may be hidden or gone first
    QSystemTrayIcon *m_icon = nullptr;
    QAction *m_addressAction = nullptr;
    QAction *m_countAction = nullptr;
    QAction *m_openAction = nullptr;
    QAction *m_pauseAction = nullptr;
    QAction *m_quitAction = nullptr;
};

} // namespace MemoryGraph::Ui
