#include "ui/autostart.h"

#include "service/core/privatefiles.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QSettings>
#include <QStandardPaths>

namespace MemoryGraph::Ui {

namespace {

const QString MinimizedOption = QStringLiteral("--minimized");

#if defined(Q_OS_WIN)
const QString RunKey
    = QStringLiteral("HKEY_CURRENT_USER\\Software\\Microsoft\\Windows\\CurrentVersion\\Run");
const QString RunValue = QStringLiteral("Memory Graph");
#elif defined(Q_OS_MACOS)
const QString LaunchAgentLabel = QStringLiteral("org.memorygraph.MemoryGraph");
#endif

#if !defined(Q_OS_WIN)
/// The entry file on the platforms that use one (everything but Windows).
QString entryFilePath()
{
#if defined(Q_OS_MACOS)
    return QDir::homePath() + QStringLiteral("/Library/LaunchAgents/") + LaunchAgentLabel
           + QStringLiteral(".plist");
#else
    // GenericConfigLocation is $XDG_CONFIG_HOME, or ~/.config when that is unset.
    return QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation)
           + QStringLiteral("/autostart/memorygraph.desktop");
#endif
}

bool writeEntryFile(const QString &path, const QString &content, QString *errorText)
{
    const QString folder = QFileInfo(path).absolutePath();
    if (!QDir().mkpath(folder)) {
        if (errorText)
            *errorText = QStringLiteral("cannot create the folder %1")
                             .arg(QDir::toNativeSeparators(folder));
        return false;
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(content.toUtf8()) < 0 || !file.commit()) {
        if (errorText)
            *errorText = QStringLiteral("cannot write %1: %2")
                             .arg(QDir::toNativeSeparators(path), file.errorString());
        return false;
    }
    // It names the data folder; nobody else needs to read it.
    PrivateFiles::restrictFile(path);
    return true;
}

bool removeEntryFile(const QString &path, QString *errorText)
{
    if (!QFile::exists(path) || QFile::remove(path))
        return true;
    if (errorText)
        *errorText = QStringLiteral("cannot remove %1").arg(QDir::toNativeSeparators(path));
    return false;
}
#endif

} // namespace

AutoStart::AutoStart(const QString &program, const QStringList &arguments)
    : m_program(program), m_arguments(arguments)
{
}

QStringList AutoStart::startArguments() const
{
    return QStringList{MinimizedOption} + m_arguments;
}

bool AutoStart::isEnabled() const
{
#if defined(Q_OS_WIN)
    return QSettings(RunKey, QSettings::NativeFormat).contains(RunValue);
#else
    return QFileInfo::exists(entryFilePath());
#endif
}

bool AutoStart::setEnabled(bool enabled, QString *errorText)
{
#if defined(Q_OS_WIN)
    QSettings run(RunKey, QSettings::NativeFormat);
    if (enabled)
        run.setValue(RunValue, windowsCommandLine(m_program, startArguments()));
    else
        run.remove(RunValue);
    run.sync();
    if (run.status() != QSettings::NoError) {
        if (errorText)
            *errorText = QStringLiteral("cannot change the registry key %1").arg(RunKey);
        return false;
    }
    return true;
#elif defined(Q_OS_MACOS)
    if (!enabled)
        return removeEntryFile(entryFilePath(), errorText);
    return writeEntryFile(entryFilePath(), launchAgentPlist(m_program, startArguments()),
                          errorText);
#else
    if (!enabled)
        return removeEntryFile(entryFilePath(), errorText);
    return writeEntryFile(entryFilePath(), desktopEntry(m_program, startArguments()), errorText);
#endif
}

QString AutoStart::location() const
{
#if defined(Q_OS_WIN)
    return RunKey;
#else
    return QDir::toNativeSeparators(entryFilePath());
#endif
}

QString AutoStart::desktopExecArgument(const QString &argument)
{
    // Desktop Entry Specification, "The Exec key": reserved characters need double quotes,
    // inside which " ` $ \ take a backslash; a literal % is %%. The value as a whole is then a
    // string value, whose own escapes (\\, \n, \t, \r) apply on top.
    static const QString reserved = QStringLiteral(" \t\n\"'\\><~|&;$*?#()`");
    bool needsQuotes = argument.isEmpty();
    QString quoted;
    for (const QChar c : argument) {
        if (reserved.contains(c))
            needsQuotes = true;
        if (c == QLatin1Char('"') || c == QLatin1Char('`') || c == QLatin1Char('$')
            || c == QLatin1Char('\\'))
            quoted += QLatin1Char('\\');
        quoted += c;
    }
    quoted.replace(QLatin1Char('%'), QStringLiteral("%%"));
    if (needsQuotes)
        quoted = QLatin1Char('"') + quoted + QLatin1Char('"');

    QString value;
    for (const QChar c : quoted) {
        if (c == QLatin1Char('\\'))
            value += QStringLiteral("\\\\");
        else if (c == QLatin1Char('\n'))
            value += QStringLiteral("\\n");
        else if (c == QLatin1Char('\t'))
            value += QStringLiteral("\\t");
        else if (c == QLatin1Char('\r'))
            value += QStringLiteral("\\r");
        else
            value += c;
    }
    return value;
}

QString AutoStart::desktopEntry(const QString &program, const QStringList &arguments)
{
    QStringList exec{desktopExecArgument(program)};
    for (const QString &argument : arguments)
        exec << desktopExecArgument(argument);
    return QStringLiteral("[Desktop Entry]\n"
                          "Type=Application\n"
                          "Name=Memory Graph\n"
                          "Comment=Serve agent memory in the background from the system tray\n"
                          "Exec=%1\n"
                          "Icon=memorygraph\n"
                          "Terminal=false\n"
                          "X-GNOME-Autostart-enabled=true\n")
        .arg(exec.join(QLatin1Char(' ')));
}

QString AutoStart::launchAgentPlist(const QString &program, const QStringList &arguments)
{
    QString items;
    for (const QString &argument : QStringList{program} + arguments)
        items += QStringLiteral("        <string>%1</string>\n").arg(argument.toHtmlEscaped());
    return QStringLiteral("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                          "<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" "
                          "\"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n"
                          "<plist version=\"1.0\">\n"
                          "<dict>\n"
                          "    <key>Label</key>\n"
                          "    <string>org.memorygraph.MemoryGraph</string>\n"
                          "    <key>ProgramArguments</key>\n"
                          "    <array>\n"
                          "%1"
                          "    </array>\n"
                          "    <key>RunAtLoad</key>\n"
                          "    <true/>\n"
                          "    <key>ProcessType</key>\n"
                          "    <string>Interactive</string>\n"
                          "</dict>\n"
                          "</plist>\n")
        .arg(items);
}

QString AutoStart::windowsCommandLine(const QString &program, const QStringList &arguments)
{
    // CommandLineToArgvW's rules: quote an argument with blanks or quotes; backslashes are
    // literal unless they precede a quote, where they (and the quote) take a backslash each.
    const auto quote = [](const QString &argument) {
        if (!argument.isEmpty() && !argument.contains(QLatin1Char(' '))
            && !argument.contains(QLatin1Char('\t')) && !argument.contains(QLatin1Char('"')))
            return argument;
        QString out(QLatin1Char('"'));
        int backslashes = 0;
        for (const QChar c : argument) {
            if (c == QLatin1Char('\\')) {
                ++backslashes;
                continue;
            }
            if (c == QLatin1Char('"'))
                out += QString(backslashes * 2 + 1, QLatin1Char('\\'));
            else
                out += QString(backslashes, QLatin1Char('\\'));
            backslashes = 0;
            out += c;
        }
        out += QString(backslashes * 2, QLatin1Char('\\'));
        return out + QLatin1Char('"');
    };
    QStringList parts{quote(QDir::toNativeSeparators(program))};
    for (const QString &argument : arguments)
        parts << quote(argument);
    return parts.join(QLatin1Char(' '));
}

} // namespace MemoryGraph::Ui
