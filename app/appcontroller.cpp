#include "app/appcontroller.h"

#include "app/backupcommand.h"
#include "app/instanceactivation.h"
#include "app/instancelock.h"
#include "app/servicehost.h"
#include "app/signalwatcher.h"
#include "service/core/config.h"
#include "service/core/privatefiles.h"
#include "service/core/requestlog.h"
#include "service/memoryservice.h"
#include "service/net/embeddingfactory.h"
#include "ui/autostart.h"
#include "ui/closepolicy.h"
#include "ui/mainwindow.h"
#include "ui/pages/serverpage.h"
#include "ui/theme.h"
#include "ui/trayicon.h"

#include <QApplication>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QHostAddress>
#include <QIcon>
#include <QLibraryInfo>
#include <QLocale>
#include <QMessageBox>
#include <QProcessEnvironment>
#include <QSettings>
#include <QStandardPaths>
#include <QTranslator>

#include <cstdio>

namespace MemoryGraph {

namespace {

/// How long a second start waits for the running window to come forward; covers an owner that
/// is still opening its store.
constexpr int ActivationTimeoutMs = 15000;

void printError(const QString &text)
{
    std::fprintf(stderr, "memorygraph: %s\n", qUtf8Printable(text));
    std::fflush(stderr);
}

QString httpUrl(const QString &address, quint16 port)
{
    const bool ipv6 = QHostAddress(address).protocol() == QAbstractSocket::IPv6Protocol;
    const QString host = ipv6 ? QLatin1Char('[') + address + QLatin1Char(']') : address;
    return QStringLiteral("http://%1:%2").arg(host).arg(port);
}

} // namespace

AppController::AppController(const CommandLineOptions &options, bool headless, QObject *parent)
    : QObject(parent), m_options(options), m_headless(headless)
{
}

AppController::~AppController()
{
    // The tray and the window go first, while the service they point to is still open; then
    // HTTP stops in its thread, pooled work drains and the service closes
    // (ServiceHost::shutdown()).
    m_tray.reset();
    m_window.reset();
    if (m_host)
        m_host->shutdown();
    m_host.reset();
    delete m_activation; // no hand-over once the folder is released
    m_activation = nullptr;
    m_lock.reset(); // the folder is free once the service is closed
    for (const auto &translator : m_translators)
        QCoreApplication::removeTranslator(translator.get());
}

int AppController::start()
{
    installTranslations();

    auto config = ServiceConfig::fromEnvironment(QProcessEnvironment::systemEnvironment());
    if (!config) {
        printError(QStringLiteral("configuration error: %1").arg(config.error().message));
        return ExitConfiguration;
    }
    if (!resolveDataDir())
        return ExitConfiguration;
    m_lock = std::make_unique<InstanceLock>(m_dataDir);
    if (!m_lock->tryLock(m_headless ? QStringLiteral("headless") : QStringLiteral("window")))
        return refuseOrHandOver();
    if (!m_headless)
        listenForActivation();

    // A restore chosen in the window (File > Restore...) waits for this moment: the folder is
    // ours and the store not open yet.
    const PendingRestoreNotice restored = applyPendingRestore(m_dataDir);

    ServiceConfig serviceConfig = config.value();
    serviceConfig.dataDir = m_dataDir;
    m_authMode = authModeName(serviceConfig.authMode);

    auto provider = makeEmbeddingProvider(serviceConfig);
    if (!provider) {
        printError(QStringLiteral("configuration error: %1").arg(provider.error().message));
        return ExitConfiguration;
    }
    auto service = MemoryService::open(serviceConfig, std::move(provider).value());
    if (!service) {
        printError(QStringLiteral("cannot open the memory store in %1: %2")
                       .arg(QDir::toNativeSeparators(m_dataDir), service.error().message));
        return ExitConfiguration;
    }
    m_host = std::make_unique<ServiceHost>(std::move(service).value());

    connect(m_host.get(), &ServiceHost::httpStarted, this, &AppController::onHttpStarted);
    connect(m_host.get(), &ServiceHost::httpStartFailed, this, &AppController::onHttpStartFailed);
    connect(m_host.get(), &ServiceHost::httpStopped, this, [this] {
        if (m_lock)
            m_lock->publishUrl(QString());
    });
    if (m_headless)
        connect(m_host.get(), &ServiceHost::requestServed, this, &AppController::logRequest);

    m_signals = new SignalWatcher(this);
    connect(m_signals, &SignalWatcher::terminationRequested, this,
            &AppController::onTerminationRequested);
    m_signals->watchTermination();

    if (!m_headless) {
        showWindow();
        if (restored.kind != PendingRestoreNotice::Kind::None) {
            // Non-modal: the window is usable at once.
            const bool ok = restored.kind == PendingRestoreNotice::Kind::Applied;
            auto *box
                = new QMessageBox(ok ? QMessageBox::Information : QMessageBox::Warning,
                                  tr("Restore"), restored.text, QMessageBox::Ok, m_window.get());
            box->setAttribute(Qt::WA_DeleteOnClose);
            box->open();
        }
    }

    m_host->startHttp(m_options.bindAddress, m_options.port);
    m_host->startMaintenance();
    return ExitOk;
}

void AppController::installTranslations()
{
    const QLocale locale = QLocale::system();
    auto load = [this, &locale](const QString &name, const QString &folder) {
        auto translator = std::make_unique<QTranslator>();
        if (translator->load(locale, name, QStringLiteral("_"), folder)
            && QCoreApplication::installTranslator(translator.get()))
            m_translators.push_back(std::move(translator));
    };
    load(QStringLiteral("qtbase"), QLibraryInfo::path(QLibraryInfo::TranslationsPath));
    load(QStringLiteral("memorygraph"), QStringLiteral(":/i18n"));
}

bool AppController::resolveDataDir()
{
    QString dir = m_options.dataDir;
    if (dir.isEmpty())
        dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    if (dir.isEmpty()) {
        printError(QStringLiteral("no application data folder is known; pass --data-dir"));
        return false;
    }
    dir = QDir::cleanPath(QDir(dir).absolutePath());
    // Owner-only (0700) whatever the umask; an existing looser folder is tightened.
    if (!PrivateFiles::ensureFolder(dir)) {
        printError(
            QStringLiteral("cannot create the data folder %1").arg(QDir::toNativeSeparators(dir)));
        return false;
    }
    const QFileInfo info(dir);
    if (!info.isDir() || !info.isWritable()) {
        printError(QStringLiteral("the data folder %1 is not a writable folder")
                       .arg(QDir::toNativeSeparators(dir)));
        return false;
    }
    m_dataDir = info.canonicalFilePath();
    return true;
}

int AppController::refuseOrHandOver()
{
    const InstanceLock::Owner owner = m_lock->owner();
    m_lock.reset();
    const QString folder = QDir::toNativeSeparators(m_dataDir);
    const bool ownerHasWindow = owner.mode == QLatin1String("window");
    if (!m_headless && ownerHasWindow
        && ActivationServer::requestActivation(ActivationServer::nameFor(m_dataDir),
                                               ActivationTimeoutMs)) {
        std::fprintf(stdout,
                     "Memory Graph is already running for %s (pid %lld); brought its window to "
                     "the front\n",
                     qUtf8Printable(folder), static_cast<long long>(owner.pid));
        std::fflush(stdout);
        m_handedOver = true;
        return ExitOk;
    }
    QString text = QStringLiteral("the data folder %1 is in use by memorygraph %2; stop that "
                                  "process first or pass another --data-dir")
                       .arg(folder, InstanceLock::describe(owner));
    if (!m_headless && !ownerHasWindow)
        text += QStringLiteral(" (it has no window to bring to the front)");
    printError(text);
    return ExitInUse;
}

void AppController::listenForActivation()
{
    m_activation = new ActivationServer(this);
    connect(m_activation, &ActivationServer::activationRequested, this,
            &AppController::onActivationRequested);
    QString why;
    if (!m_activation->listen(ActivationServer::nameFor(m_dataDir), &why))
        printError(QStringLiteral("a second start cannot reach this window: %1").arg(why));
}

void AppController::onActivationRequested()
{
    // Requests are read by the event loop, which runs once the window exists.
    if (!m_window)
        return;
    m_window->bringToFront();
    printError(QStringLiteral("window activated by a second start"));
}

void AppController::showWindow()
{
    auto *app = qobject_cast<QApplication *>(QCoreApplication::instance());
    Q_ASSERT(app);
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/memorygraph.png")));
    if (m_options.dark)
        Ui::applyDarkPalette(*app);
    // The window says when closing it means quitting (quitRequested); a dialog closed while
    // the window sits in the tray must not end the service.
    QApplication::setQuitOnLastWindowClosed(false);
    m_settings
        = std::make_unique<QSettings>(QSettings::NativeFormat, QSettings::UserScope,
                                      QStringLiteral("memorygraph"), QStringLiteral("memorygraph"));

    m_window = std::make_unique<Ui::MainWindow>(m_host->service());
    Ui::ServerPage *page = m_window->serverPage();
    page->setBindAddress(m_options.bindAddress);
    page->setPort(m_options.port);
    page->setAuthMode(m_authMode);
    page->setDataDir(m_options.dataDir.isEmpty() ? QString() : m_dataDir);

    connect(page, &Ui::ServerPage::startRequested, m_host.get(), &ServiceHost::startHttp);
    connect(page, &Ui::ServerPage::stopRequested, m_host.get(), &ServiceHost::stopHttp);
    connect(m_host.get(), &ServiceHost::httpStarted, page, &Ui::ServerPage::onServerStarted);
    connect(m_host.get(), &ServiceHost::httpStopped, page, &Ui::ServerPage::onServerStopped);
    connect(m_host.get(), &ServiceHost::httpStartFailed, page, &Ui::ServerPage::onServerFailed);
    connect(m_host.get(), &ServiceHost::requestServed, page, &Ui::ServerPage::appendRequest);
    // Queued: a close that quits finishes closing before the event loop is asked to end.
    connect(m_window.get(), &Ui::MainWindow::quitRequested, this, &AppController::quitApplication,
            Qt::QueuedConnection);
    createTray();

    if (m_options.minimized && m_tray->ensureVisible())
        return; // serving from the tray; the icon opens the window
    if (m_options.minimized)
        m_window->showMinimized();
    else
        m_window->show();
}

void AppController::createTray()
{
    m_tray = std::make_unique<Ui::TrayIcon>(m_window.get());
    Ui::TrayIcon *tray = m_tray.get();
    // Asked at each close: a tray that appears after start (a panel still loading at login)
    // counts, and the icon is shown before the window hides into it.
    m_closePolicy = std::make_unique<Ui::ClosePolicy>(m_settings.get(),
                                                      [tray] { return tray->ensureVisible(); });
    QString program = QCoreApplication::applicationFilePath();
    // Inside an AppImage the executable lives in a mount that is gone at the next login.
    if (const QString image = qEnvironmentVariable("APPIMAGE"); !image.isEmpty())
        program = image;
    m_autoStart = std::make_unique<Ui::AutoStart>(program, autoStartArguments());
    m_window->setClosePolicy(m_closePolicy.get());
    m_window->setAutoStart(m_autoStart.get());
    connect(m_window.get(), &Ui::MainWindow::keptServingInTray, tray, [tray](bool firstTime) {
        if (firstTime)
            tray->showCloseNotice();
    });
    tray->ensureVisible();
}

QStringList AppController::autoStartArguments() const
{
    // What this run was told beyond the defaults, so the start at login serves the same way.
    const CommandLineOptions defaults;
    QStringList arguments;
    if (!m_options.dataDir.isEmpty())
        arguments << QStringLiteral("--data-dir") << m_dataDir;
    if (m_options.bindAddress != defaults.bindAddress)
        arguments << QStringLiteral("--bind") << m_options.bindAddress;
    if (m_options.port != defaults.port)
        arguments << QStringLiteral("--port") << QString::number(m_options.port);
    if (m_options.dark)
        arguments << QStringLiteral("--dark");
    return arguments;
}

void AppController::quitApplication()
{
    // A real quit: the window closes for good, exec() returns and the destructor stops HTTP
    // after the requests in flight, as for Ctrl+C.
    if (m_window)
        m_window->setQuitting();
    QCoreApplication::quit();
}

void AppController::onHttpStarted(const QString &address, quint16 port)
{
    if (m_lock)
        m_lock->publishUrl(httpUrl(address, port));
    std::fprintf(stdout, "memorygraph listening on %s (auth %s, data %s)\n",
                 qUtf8Printable(httpUrl(address, port)), qUtf8Printable(m_authMode),
                 qUtf8Printable(QDir::toNativeSeparators(m_dataDir)));
    std::fflush(stdout);
}

void AppController::onHttpStartFailed(const QString &reason)
{
    printError(QStringLiteral("HTTP server could not start: %1").arg(reason));
    if (m_headless)
        QCoreApplication::exit(ExitHttp);
}

void AppController::onTerminationRequested(int signalNumber)
{
    printError(QStringLiteral("%1 received, shutting down").arg(signalName(signalNumber)));
    quitApplication();
}

void AppController::logRequest(const RequestLogEntry &entry)
{
    // Method, path without query, status, latency, tenant, request id: never headers or bodies.
    const QString path = entry.path.section(QLatin1Char('?'), 0, 0);
    QString line = QStringLiteral("%1 %2 %3 %4ms tenant=%5 request_id=%6")
                       .arg(entry.method, path)
                       .arg(entry.status)
                       .arg(entry.latencyMs, 0, 'f', 1)
                       .arg(entry.tenantId.isEmpty() ? QStringLiteral("-") : entry.tenantId,
                            entry.requestId.isEmpty() ? QStringLiteral("-") : entry.requestId);
    if (!entry.errorCode.isEmpty())
        line += QStringLiteral(" error=") + entry.errorCode;
    if (!entry.detail.isEmpty())
        line += QStringLiteral(" mcp=\"%1\"").arg(entry.detail);
    std::fprintf(stderr, "%s\n", qUtf8Printable(line));
}

} // namespace MemoryGraph
