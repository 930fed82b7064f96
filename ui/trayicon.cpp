#include "ui/trayicon.h"

#include "ui/mainwindow.h"
#include "ui/pages/serverpage.h"

#include <QAction>
#include <QApplication>
#include <QIcon>
#include <QMenu>
#include <QStyle>
#include <QSystemTrayIcon>

namespace MemoryGraph::Ui {

namespace {

constexpr int NoticeMs = 10000;

QIcon trayImage()
{
    const QIcon icon = QApplication::windowIcon();
    return icon.isNull() ? QApplication::style()->standardIcon(QStyle::SP_DriveNetIcon) : icon;
}

} // namespace

TrayIcon::TrayIcon(MainWindow *window, QObject *parent)
    : QObject(parent), m_window(window), m_menu(std::make_unique<QMenu>())
{
    Q_ASSERT(m_window);
    m_menu->setObjectName(QStringLiteral("trayMenu"));
    createMenu();

    m_icon = new QSystemTrayIcon(trayImage(), this);
    m_icon->setContextMenu(m_menu.get());
    connect(m_icon, &QSystemTrayIcon::activated, this,
            [this](QSystemTrayIcon::ActivationReason reason) {
                // A click (or double click) opens the window; the context menu opens itself.
                if (reason == QSystemTrayIcon::Trigger || reason == QSystemTrayIcon::DoubleClick)
                    m_window->bringToFront();
            });

    ServerPage *page = m_window->serverPage();
    connect(page, &ServerPage::stateChanged, this, &TrayIcon::refreshState);
    connect(page, &ServerPage::requestsServedChanged, this, &TrayIcon::refreshCount);
    refreshState();
    refreshCount(page->requestsServed());
}

TrayIcon::~TrayIcon()
{
    // The icon leaves the tray before its menu goes.
    delete m_icon;
}

void TrayIcon::createMenu()
{
    m_addressAction = m_menu->addAction(QString());
    m_addressAction->setObjectName(QStringLiteral("trayAddress"));
    m_addressAction->setEnabled(false);
    m_countAction = m_menu->addAction(QString());
    m_countAction->setObjectName(QStringLiteral("trayRequestCount"));
    m_countAction->setEnabled(false);
    m_menu->addSeparator();

    m_openAction = m_menu->addAction(tr("&Open Memory Graph"));
    m_openAction->setObjectName(QStringLiteral("trayOpen"));
    connect(m_openAction, &QAction::triggered, m_window, &MainWindow::bringToFront);

    m_pauseAction = m_menu->addAction(tr("&Pause serving"));
    m_pauseAction->setObjectName(QStringLiteral("trayPause"));
    connect(m_pauseAction, &QAction::triggered, this, &TrayIcon::togglePause);
    m_menu->addSeparator();

    m_quitAction = m_menu->addAction(tr("&Quit Memory Graph"));
    m_quitAction->setObjectName(QStringLiteral("trayQuit"));
    connect(m_quitAction, &QAction::triggered, m_window, &MainWindow::requestQuit);
}

bool TrayIcon::ensureVisible()
{
    if (!QSystemTrayIcon::isSystemTrayAvailable())
        return false;
    if (!m_icon->isVisible())
        m_icon->show();
    return m_icon->isVisible();
}

QString TrayIcon::toolTip() const
{
    return m_icon->toolTip();
}

void TrayIcon::showCloseNotice()
{
    const QString url = m_window->serverPage()->serviceUrl();
    const QString where = url.isEmpty() ? tr("Memory Graph keeps running in the tray.")
                                        : tr("Agents can still reach it at %1.").arg(url);
    m_icon->showMessage(tr("Memory Graph is still serving"),
                        where + QLatin1Char(' ')
                            + tr("Open it from this icon; choose Quit in its menu to stop it."),
                        QSystemTrayIcon::Information, NoticeMs);
}

void TrayIcon::refreshState()
{
    const ServerPage *page = m_window->serverPage();
    const ServerPage::State state = page->state();
    switch (state) {
    case ServerPage::State::Running:
        m_addressAction->setText(tr("Serving on %1").arg(page->serviceUrl()));
        break;
    case ServerPage::State::Stopped: m_addressAction->setText(tr("Paused: not serving")); break;
    case ServerPage::State::Starting:
    case ServerPage::State::Stopping:
    case ServerPage::State::Failed: m_addressAction->setText(page->stateSummary()); break;
    }
    const bool running = state == ServerPage::State::Running;
    const bool idle = state == ServerPage::State::Stopped || state == ServerPage::State::Failed;
    m_pauseAction->setText(running ? tr("&Pause serving") : tr("&Resume serving"));
    m_pauseAction->setEnabled(running || idle);
    m_icon->setToolTip(tr("Memory Graph") + QLatin1Char('\n') + m_addressAction->text());
}

void TrayIcon::refreshCount(qint64 total)
{
    m_countAction->setText(total == 1 ? tr("1 request served")
                                      : tr("%1 requests served").arg(total));
}

void TrayIcon::togglePause()
{
    ServerPage *page = m_window->serverPage();
    if (page->state() == ServerPage::State::Running)
        page->stopServer();
    else
        page->startServer();
}

} // namespace MemoryGraph::Ui
