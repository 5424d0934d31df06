// Tests of HistoryModel: columns, cell text, sort values, RunIdRole and rowOf over a few
// hand-made runs, with QAbstractItemModelTester watching every change.
#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTest>

#include "gsflow/ui/models/history_model.hpp"

using gsflow::storage::kRunStatusNames;
using gsflow::storage::RunInfo;
using gsflow::ui::HistoryModel;

namespace {

constexpr auto kReport = QAbstractItemModelTester::FailureReportingMode::QtTest;

RunInfo run(std::int64_t id, std::string name, std::string status, std::size_t completed,
            std::size_t requested, std::uint64_t seed) {
  RunInfo r;
  r.id = id;
  r.name = std::move(name);
  r.status = kRunStatusNames.parse(status, "status");
  r.completed = completed;
  r.requested = requested;
  r.seed = seed;
  r.method = "gsfm";
  r.model.name = "dna-promoter";
  r.model.file = "/models/dna-promoter.pt";
  return r;
}

// Newest first, as RunStore lists them.
std::vector<RunInfo> sample() {
  RunInfo a = run(42, "promoters-b", "running", 9, 100, 7);
  a.frames = 120;
  a.created_at = "2026-12-02T10:00:00Z";
  a.tags = {"promoter", "sweep"};
  a.notes = "second try\nhigher guidance";
  RunInfo b = run(7, "promoters-a", "failed", 10, 10, 18446744073709551615ull);
  b.created_at = "2026-12-01T09:30:00Z";
  b.error = "out of memory";
  b.method = "gssm";
  RunInfo c = run(3, "peptides", "completed", 64, 64, 1);
  c.model.name = "amp-peptide";
  c.frames = 2048;
  c.created_at = "2026-11-30T08:00:00Z";
  c.tags = {"amp"};
  return {a, b, c};
}

QString text(const QAbstractItemModel& m, int row, int column, int role = Qt::DisplayRole) {
  return m.index(row, column).data(role).toString();
}

}  // namespace

class TestHistoryModel : public QObject {
  Q_OBJECT

 private slots:
  void columnsAndHeaders();
  void cellText();
  void runIdAndRowOf();
  void sortValues();
  void setRunsResets();
};

void TestHistoryModel::columnsAndHeaders() {
  HistoryModel model;
  QAbstractItemModelTester tester(&model, kReport);
  QCOMPARE(model.rowCount(), 0);
  model.setRuns(sample());
  const QStringList expected{"name",      "status", "model",   "method", "seed",
                             "sequences", "frames", "created", "tags",   "notes"};
  QCOMPARE(model.columnCount(), expected.size());
  QCOMPARE(model.rowCount(), 3);
  for (int c = 0; c < expected.size(); ++c)
    QCOMPARE(model.headerData(c, Qt::Horizontal).toString(), expected[c]);
  QVERIFY(!model.headerData(expected.size(), Qt::Horizontal).isValid());
  QCOMPARE(model.headerData(0, Qt::Vertical).toInt(), 1);
}

void TestHistoryModel::cellText() {
  HistoryModel model;
  QAbstractItemModelTester tester(&model, kReport);
  model.setRuns(sample());
  QCOMPARE(text(model, 0, 0), QStringLiteral("promoters-b"));
  QCOMPARE(text(model, 0, 1), QStringLiteral("running"));
  QCOMPARE(text(model, 0, 2), QStringLiteral("dna-promoter"));
  QCOMPARE(text(model, 1, 3), QStringLiteral("gssm"));
  QCOMPARE(text(model, 1, 4), QStringLiteral("18446744073709551615"));  // all 64 bits
  QCOMPARE(text(model, 0, 5), QStringLiteral("9/100"));
  QCOMPARE(text(model, 2, 5), QStringLiteral("64/64"));
  QCOMPARE(text(model, 2, 6), QStringLiteral("2048"));
  QCOMPARE(text(model, 0, 7), QStringLiteral("2026-12-02T10:00:00Z"));
  QCOMPARE(text(model, 0, 8), QStringLiteral("promoter, sweep"));
  QCOMPARE(text(model, 2, 8), QStringLiteral("amp"));
  QCOMPARE(text(model, 1, 8), QString());
  // One line in the cell, the full notes in the tooltip; a failed run's error on its status.
  QCOMPARE(text(model, 0, 9), QStringLiteral("second try higher guidance"));
  QCOMPARE(text(model, 0, 9, Qt::ToolTipRole), QStringLiteral("second try\nhigher guidance"));
  QCOMPARE(text(model, 1, 1, Qt::ToolTipRole), QStringLiteral("out of memory"));

  const int right = static_cast<int>(Qt::AlignRight | Qt::AlignVCenter);
  QCOMPARE(model.index(0, 5).data(Qt::TextAlignmentRole).toInt(), right);
  QVERIFY(!model.index(0, 0).data(Qt::TextAlignmentRole).isValid());
}

void TestHistoryModel::runIdAndRowOf() {
  HistoryModel model;
  QAbstractItemModelTester tester(&model, kReport);
  model.setRuns(sample());
  for (int c = 0; c < model.columnCount(); ++c) {
    const QVariant id = model.index(1, c).data(HistoryModel::RunIdRole);
    QCOMPARE(id.userType(), QMetaType::LongLong);
    QCOMPARE(id.value<qint64>(), qint64{7});
  }
  QCOMPARE(model.index(0, 0).data(HistoryModel::RunIdRole).value<qint64>(), qint64{42});
  QCOMPARE(model.rowOf(42), 0);
  QCOMPARE(model.rowOf(7), 1);
  QCOMPARE(model.rowOf(3), 2);
  QCOMPARE(model.rowOf(99), -1);
  QCOMPARE(model.runs().size(), std::size_t{3});
}

void TestHistoryModel::sortValues() {
  HistoryModel model;
  QSortFilterProxyModel proxy;
  QAbstractItemModelTester tester(&model, kReport);
  QAbstractItemModelTester proxyTester(&proxy, kReport);
  proxy.setSourceModel(&model);
  proxy.setSortRole(HistoryModel::SortRole);
  model.setRuns(sample());

  // "sequences" sorts by completed count: 9 < 10 < 64 (its text "9/100" would sort last).
  QCOMPARE(model.index(0, 5).data(HistoryModel::SortRole).toULongLong(), 9ull);
  proxy.sort(5, Qt::AscendingOrder);
  QCOMPARE(proxy.index(0, 0).data().toString(), QStringLiteral("promoters-b"));
  QCOMPARE(proxy.index(1, 0).data().toString(), QStringLiteral("promoters-a"));
  QCOMPARE(proxy.index(2, 0).data().toString(), QStringLiteral("peptides"));
  // Seeds compare as 64-bit integers: 1 < 7 < 2^64-1.
  proxy.sort(4, Qt::AscendingOrder);
  QCOMPARE(proxy.index(0, 4).data().toString(), QStringLiteral("1"));
  QCOMPARE(proxy.index(2, 4).data().toString(), QStringLiteral("18446744073709551615"));
  // Frames numerically: 0 < 120 < 2048.
  proxy.sort(6, Qt::DescendingOrder);
  QCOMPARE(proxy.index(0, 6).data().toString(), QStringLiteral("2048"));
  QCOMPARE(proxy.index(2, 6).data().toString(), QStringLiteral("0"));
  proxy.sort(7, Qt::AscendingOrder);  // ISO 8601 sorts as text
  QCOMPARE(proxy.index(0, 0).data().toString(), QStringLiteral("peptides"));
}

void TestHistoryModel::setRunsResets() {
  HistoryModel model;
  QAbstractItemModelTester tester(&model, kReport);
  QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
  model.setRuns(sample());
  QCOMPARE(reset.count(), 1);
  model.setRuns({run(5, "only", "completed", 1, 1, 2)});
  QCOMPARE(reset.count(), 2);
  QCOMPARE(model.rowCount(), 1);
  QCOMPARE(model.rowOf(42), -1);
  QCOMPARE(model.rowOf(5), 0);
  model.setRuns({});
  QCOMPARE(model.rowCount(), 0);
}

QTEST_GUILESS_MAIN(TestHistoryModel)
#include "test_history_model.moc"
