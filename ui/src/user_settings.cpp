// The per-user settings file of gsflow-studio (see user_settings.hpp).
#include "gsflow/ui/user_settings.hpp"

#include <pwd.h>
#include <unistd.h>

#include <QCoreApplication>
#include <QDir>
#include <QSettings>

namespace gsflow::ui {

namespace {

QString absoluteEnv(const char* name) {
  const QString value = qEnvironmentVariable(name);
  return !value.isEmpty() && QDir::isAbsolutePath(value) ? QDir::cleanPath(value) : QString();
}

}  // namespace

QString userConfigDir() {
  if (const QString xdg = absoluteEnv("XDG_CONFIG_HOME"); !xdg.isEmpty()) return xdg;
  QString home = absoluteEnv("HOME");
  if (home.isEmpty()) {
    // Qt would take "/" here (QDir::homePath), a folder every user without HOME shares.
    if (const passwd* user = getpwuid(getuid()); user && user->pw_dir && *user->pw_dir)
      home = QString::fromLocal8Bit(user->pw_dir);
  }
  if (home.isEmpty() || home == QLatin1String("/"))
    home = QDir::tempPath() + QStringLiteral("/gsflow-%1").arg(getuid());
  return QDir(home).filePath(QStringLiteral(".config"));
}

void useUserSettings() {
  const QString dir = userConfigDir();
  QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir);
  QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir);
}

std::unique_ptr<QSettings> userSettings() {
  // The default format (native: ORG/APP.conf, where earlier versions kept them too).
  auto settings = std::make_unique<QSettings>(QSettings::defaultFormat(), QSettings::UserScope,
                                              QCoreApplication::organizationName(),
                                              QCoreApplication::applicationName());
  settings->setFallbacksEnabled(false);
  return settings;
}

}  // namespace gsflow::ui
