#pragma once

#include "app/commandline.h"

#include <QObject>
#include <QString>

#include <memory>
#include <vector>

class QSettings;
class QTranslator;

namespace MemoryGraph {

namespace Ui {
class AutoStart;
class ClosePolicy;
class MainWindow;
class TrayIcon;
} // namespace Ui

class ActivationServer;
class InstanceLock;
class ServiceHost;
class SignalWatcher;
struct RequestLogEntry;

/// Exit codes of the memorygraph executable.
enum ExitCode : int {
    ExitOk = 0,
    ExitUsage = 1,         ///< bad command line
    ExitConfiguration = 2, ///< bad environment, data folder or store that cannot be opened
    ExitHttp = 3,          ///< headless run whose HTTP server could not start
    ExitInUse = 4,         ///< another process owns the data folder (its lock file says which)
    ExitFailed = 5, ///< a backup, restore, export or import did not complete (bad or damaged file,
                    ///< conflict, I/O, cancel)
    ExitCancelled = 6, ///< backup / restore interrupted (Ctrl+C): nothing was changed
};

/// Composition root: builds the configuration from the environment and the command line, opens
/// the service, starts HTTP on its own thread and, unless headless, shows the admin window wired
/// to it, with its tray icon. Owns everything it creates and tears it down in order.
///
/// A windowed start whose data folder is held by another window hands over to it (that window
/// comes to the front) and ends with ExitOk without running; see handedOver().
class AppController : public QObject
{
    Q_OBJECT
public:
    /// headless must match the application class: true for QCoreApplication.
    AppController(const CommandLineOptions &options, bool headless, QObject *parent = nullptr);
    ~AppController() override;

    /// Opens everything and asks HTTP to listen. Returns ExitOk when the caller should enter
    /// the event loop, otherwise the exit code (after printing the reason to stderr).
    int start();
    /// After start() returned ExitOk: true when another window took over and this process
    /// has nothing to run.
    bool handedOver() const { return m_handedOver; }

private:
    void installTranslations();
    bool resolveDataDir();
    int refuseOrHandOver();
    void listenForActivation();
    void showWindow();
    void createTray();
    QStringList autoStartArguments() const;
    void quitApplication();
    void onActivationRequested();
    void onHttpStarted(const QString &address, quint16 port);
    void onHttpStartFailed(const QString &reason);
    void onTerminationRequested(int signalNumber);
    static void logRequest(const RequestLogEntry &entry);

    CommandLineOptions m_options;
    bool m_headless;
    QString m_dataDir;
    QString m_authMode;
    std::vector<std::unique_ptr<QTranslator>> m_translators;
    std::unique_ptr<InstanceLock> m_lock;
    std::unique_ptr<ServiceHost> m_host;
    std::unique_ptr<QSettings> m_settings;
    std::unique_ptr<Ui::ClosePolicy> m_closePolicy;
    std::unique_ptr<Ui::AutoStart> m_autoStart;
    std::unique_ptr<Ui::MainWindow> m_window;
    std::unique_ptr<Ui::TrayIcon> m_tray;
    ActivationServer *m_activation = nullptr;
    SignalWatcher *m_signals = nullptr;
    bool m_handedOver = false;
};

} // namespace MemoryGraph
