// gsflow-studio's settings are per user (issue 41: a first start showed settings an earlier user
// of the machine had saved): the folder comes from XDG_CONFIG_HOME or the user's own home (never
// "/.config" when HOME is empty), and a new user with an empty config folder sees the defaults,
// even when another user's settings sit where Qt would fall back to (the system-wide folder).
#include <pwd.h>
#include <unistd.h>

#include <QDir>
#include <QFile>
#include <QLineEdit>
#include <QSettings>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include "gsflow/ui/design_panel.hpp"
#include "gsflow/ui/main_window.hpp"
#include "gsflow/ui/user_settings.hpp"

using gsflow::ui::MainWindow;

class SettingsTest : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir dir_;

  // The user's settings file as the application names it.
  QString settingsFile(const QString& configDir) const {
    return QDir(configDir).filePath(QCoreApplication::organizationName() + QLatin1Char('/') +
                                    QCoreApplication::applicationName() + QStringLiteral(".conf"));
  }

  // Starts "as" a user whose configuration folder is `configDir`.
  void becomeUser(const QString& configDir) {
    qputenv("XDG_CONFIG_HOME", configDir.toLocal8Bit());
    gsflow::ui::useUserSettings();
  }

 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    QCoreApplication::setOrganizationName(QStringLiteral("gsflow-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("gsflow-studio-settings-tests"));
    // The system-wide fallback folder (/etc/xdg on Debian), here a temporary one.
    QSettings::setPath(QSettings::IniFormat, QSettings::SystemScope, dir_.filePath("system"));
    QSettings::setPath(QSettings::NativeFormat, QSettings::SystemScope, dir_.filePath("system"));
  }

  void configFolderIsTheUsers() {
    const QString home = dir_.filePath(QStringLiteral("home"));
    qputenv("HOME", home.toLocal8Bit());
    qputenv("XDG_CONFIG_HOME", dir_.filePath("xdg").toLocal8Bit());
    QCOMPARE(gsflow::ui::userConfigDir(), dir_.filePath("xdg"));
    // The XDG spec: a relative XDG_CONFIG_HOME is ignored.
    qputenv("XDG_CONFIG_HOME", "relative/config");
    QCOMPARE(gsflow::ui::userConfigDir(), QDir(home).filePath(".config"));
    qunsetenv("XDG_CONFIG_HOME");
    QCOMPARE(gsflow::ui::userConfigDir(), QDir(home).filePath(".config"));
    // No HOME (a service, `env -i`): the user's home from the password database, never the
    // "/.config" every such user would share (where Qt's QDir::homePath() leads).
    const passwd* user = getpwuid(getuid());
    QVERIFY(user && user->pw_dir);
    const QString own = QString::fromLocal8Bit(user->pw_dir);
    for (const bool unset : {false, true}) {
      if (unset)
        qunsetenv("HOME");
      else
        qputenv("HOME", "");
      const QString dir = gsflow::ui::userConfigDir();
      QVERIFY2(dir != QStringLiteral("/.config"), qPrintable(dir));
      if (own != QStringLiteral("/")) QCOMPARE(dir, QDir(own).filePath(".config"));
    }
    qputenv("HOME", home.toLocal8Bit());
  }

  // Alice saves her settings; Bob, new on the machine, starts with an empty config folder and
  // sees the defaults, though Alice's file is also in the system-wide fallback folder.
  void newUserSeesDefaults() {
    const QString alice = dir_.filePath(QStringLiteral("alice-config"));
    const QString bob = dir_.filePath(QStringLiteral("bob-config"));
    becomeUser(alice);
    {
      MainWindow w(dir_.filePath(QStringLiteral("alice.sqlite")));
      w.show();
      w.designPanel()->numberBox()->setValue(13);
      w.designPanel()->seedEdit()->setText(QStringLiteral("99"));
      w.tabs()->setCurrentIndex(3);
      w.close();  // saves
    }
    QVERIFY2(QFile::exists(settingsFile(alice)), qPrintable(settingsFile(alice)));
    {
      const QSettings written(settingsFile(alice), QSettings::IniFormat);
      QCOMPARE(written.value(QStringLiteral("window/tab")).toInt(), 3);
    }
    // The same file where Qt's fallbacks look (as if copied to /etc/xdg).
    const QString system = settingsFile(dir_.filePath("system"));
    QVERIFY(QDir().mkpath(QFileInfo(system).absolutePath()));
    QVERIFY(QFile::copy(settingsFile(alice), system));

    becomeUser(bob);
    {
      // Qt's default QSettings would have shown Bob Alice's tab through the fallback.
      const QSettings qtDefault;
      QCOMPARE(qtDefault.value(QStringLiteral("window/tab")).toInt(), 3);
      QVERIFY(qtDefault.fileName().startsWith(bob));
    }
    gsflow::ui::DesignPanel defaults;
    MainWindow w(dir_.filePath(QStringLiteral("bob.sqlite")));
    w.show();
    QCOMPARE(w.designPanel()->numberBox()->value(), defaults.numberBox()->value());
    QVERIFY(defaults.numberBox()->value() != 13);
    QCOMPARE(w.designPanel()->seedEdit()->text(), defaults.seedEdit()->text());
    QCOMPARE(w.tabs()->currentIndex(), 0);
    QCOMPARE(gsflow::ui::userSettings()->fileName(), settingsFile(bob));
    w.close();
    QVERIFY(QFile::exists(settingsFile(bob)));

    // Alice's own settings are still hers.
    becomeUser(alice);
    MainWindow again(dir_.filePath(QStringLiteral("alice.sqlite")));
    QCOMPARE(again.designPanel()->numberBox()->value(), 13);
    QCOMPARE(again.designPanel()->seedEdit()->text(), QStringLiteral("99"));
  }
};

QTEST_MAIN(SettingsTest)
#include "test_settings.moc"
