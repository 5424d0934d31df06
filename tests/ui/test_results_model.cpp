// Tests of ResultsModel and ResultsFilterModel: columns and values for hand-computed records,
// numeric sorting, the filter grammar and its errors, live appends; every model is watched by
// QAbstractItemModelTester.
#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>
#include <optional>
#include <stdexcept>

#include "gsflow/ui/models/results_model.hpp"

using gsflow::storage::SequenceRecord;
using gsflow::ui::ResultsFilterModel;
using gsflow::ui::ResultsModel;

namespace {

constexpr auto kReport = QAbstractItemModelTester::FailureReportingMode::QtTest;

SequenceRecord record(std::size_t index, std::string text, std::map<std::string, double> scores,
                      std::optional<double> novelty = std::nullopt) {
  SequenceRecord r;
  r.index = index;
  r.text = std::move(text);
  r.scores = std::move(scores);
  r.novelty = novelty;
  return r;
}

// Four DNA records (their index in the run; "#" shows it 1-based), length 10 so composition
// shares are whole percents:
//   #9  TATAAAGGCC  A4 C2 G2 T2  GC 0.4   gc 0.4   promoter 0.95
//   #10 GGGCCCATGC  A1 C4 G4 T1  GC 0.8   gc 0.8   promoter 0.5      novelty 12.3456
//   #2  ACGTTATAGC  A3 C2 G2 T3  GC 0.4   gc 0.45  promoter 0.2
//   #3  CCCCCGGGGA  A1 C5 G4 T0  GC 0.9   gc 0.6   promoter 0.987654
std::vector<SequenceRecord> sample() {
  return {record(9, "TATAAAGGCC", {{"gc", 0.4}, {"promoter", 0.95}}),
          record(10, "GGGCCCATGC", {{"gc", 0.8}, {"promoter", 0.5}}, 12.3456),
          record(2, "ACGTTATAGC", {{"gc", 0.45}, {"promoter", 0.2}}),
          record(3, "CCCCCGGGGA", {{"gc", 0.6}, {"promoter", 0.987654}})};
}

QString text(const QAbstractItemModel& m, int row, int column) {
  return m.index(row, column).data(Qt::DisplayRole).toString();
}

// The records' indices in the run (0-based) of every row of `m`, in row order, read from the
// "#" column, which shows them 1-based (the FASTA record number).
QList<int> indices(const QAbstractItemModel& m, int indexColumn = 0) {
  QList<int> out;
  for (int r = 0; r < m.rowCount(); ++r) out << text(m, r, indexColumn).toInt() - 1;
  return out;
}

}  // namespace

// The sample rows behind a filter model, with the model tester attached to the filter before the
// source is set (the order most of the tests below need).
struct SampleThroughFilter {
  ResultsModel model;
  ResultsFilterModel proxy;
  QAbstractItemModelTester tester{&proxy, kReport};
  SampleThroughFilter() {
    proxy.setSourceModel(&model);
    model.setSequences(sample(), QStringLiteral("dna"));
  }
};

class TestResultsModel : public QObject {
  Q_OBJECT

 private slots:
  void columnsAndHeaders();
  void cellValues();
  void compositionDna();
  void compositionProtein();
  void noCompositionForOtherAlphabets();
  void sortsNumerically();
  void filterComparisons();
  void filterPlainText();
  void filterConjunction();
  void filterErrors();
  void filterReparsedWhenColumnsAppear();
  void filterSetBeforeSource();
  void appendWithoutNewColumns();
  void appendWithNewColumns();
  void appendWhileSortedAndFiltered();
  void clearKeepsAlphabet();
  void designScoresReadWell();
  void indexIsOneBasedWithTheRecordId();
  void compositionWarnings();
};

void TestResultsModel::columnsAndHeaders() {
  ResultsModel model;
  QAbstractItemModelTester tester(&model, kReport);
  model.setSequences(sample(), QStringLiteral("dna"));

  const QStringList expected{"#", "sequence", "length", "gc", "promoter", "novelty", "composition"};
  QCOMPARE(model.columnNames(), expected);
  QCOMPARE(model.scoreNames(), (QStringList{"gc", "promoter"}));
  QCOMPARE(model.rowCount(), 4);
  QCOMPARE(model.columnCount(), 7);
  for (int c = 0; c < expected.size(); ++c) {
    QCOMPARE(model.headerData(c, Qt::Horizontal).toString(), expected[c]);
    QCOMPARE(model.columnOf(expected[c]), c);
  }
  QCOMPARE(model.columnOf(QStringLiteral("stability")), -1);
  QCOMPARE(model.headerData(0, Qt::Vertical).toInt(), 1);
  QCOMPARE(model.headerData(3, Qt::Vertical).toInt(), 4);
  QVERIFY(!model.headerData(7, Qt::Horizontal).isValid());

  QCOMPARE(model.sequenceAt(2).index, std::size_t{2});
  bool threw = false;
  try {
    model.sequenceAt(4);
  } catch (const std::out_of_range&) {
    threw = true;
  }
  QVERIFY(threw);
}

void TestResultsModel::cellValues() {
  ResultsModel model;
  QAbstractItemModelTester tester(&model, kReport);
  model.setSequences(sample(), QStringLiteral("dna"));
  const int gc = model.columnOf("gc"), promoter = model.columnOf("promoter"),
            novelty = model.columnOf("novelty");

  QCOMPARE(text(model, 0, 0), QStringLiteral("10"));  // index 9, shown 1-based
  QCOMPARE(text(model, 0, 1), QStringLiteral("TATAAAGGCC"));
  QCOMPARE(text(model, 0, 2), QStringLiteral("10"));
  QCOMPARE(text(model, 0, gc), QStringLiteral("0.4"));
  QCOMPARE(text(model, 3, promoter), QStringLiteral("0.9877"));  // 4 significant digits
  QCOMPARE(text(model, 1, novelty), QStringLiteral("12.35"));
  QCOMPARE(text(model, 0, novelty), QString());  // no novelty for this row

  // SortRole: raw doubles for numbers (not the rounded text), the text for the sequence.
  QCOMPARE(model.index(3, promoter).data(ResultsModel::SortRole).toDouble(), 0.987654);
  QCOMPARE(model.index(1, novelty).data(ResultsModel::SortRole).toDouble(), 12.3456);
  QCOMPARE(model.index(1, 0).data(ResultsModel::SortRole).userType(), QMetaType::Double);
  QCOMPARE(model.index(1, 0).data(ResultsModel::SortRole).toDouble(), 11.0);
  QVERIFY(!model.index(0, novelty).data(ResultsModel::SortRole).isValid());
  QCOMPARE(model.index(1, 1).data(ResultsModel::SortRole).toString(), QStringLiteral("GGGCCCATGC"));

  const int right = static_cast<int>(Qt::AlignRight | Qt::AlignVCenter);
  QCOMPARE(model.index(0, gc).data(Qt::TextAlignmentRole).toInt(), right);
  QCOMPARE(model.index(0, 0).data(Qt::TextAlignmentRole).toInt(), right);
  QCOMPARE(model.index(0, 2).data(Qt::TextAlignmentRole).toInt(), right);
  QVERIFY(!model.index(0, 1).data(Qt::TextAlignmentRole).isValid());
  QCOMPARE(model.index(2, 1).data(Qt::ToolTipRole).toString(), QStringLiteral("ACGTTATAGC"));
}

void TestResultsModel::compositionDna() {
  ResultsModel model;
  QAbstractItemModelTester tester(&model, kReport);
  model.setSequences(sample(), QStringLiteral("dna"));
  const int c = model.columnOf("composition");
  QCOMPARE(c, 6);
  QCOMPARE(text(model, 0, c), QStringLiteral("A 40% C 20% G 20% T 20%"));
  QCOMPARE(text(model, 1, c), QStringLiteral("A 10% C 40% G 40% T 10%"));
  QCOMPARE(text(model, 2, c), QStringLiteral("A 30% C 20% G 20% T 30%"));
  QCOMPARE(text(model, 3, c), QStringLiteral("A 10% C 50% G 40% T 0%"));
  // The sort value is the GC fraction of the letters (not the stored "gc" score).
  QCOMPARE(model.index(0, c).data(ResultsModel::SortRole).toDouble(), 0.4);
  QCOMPARE(model.index(1, c).data(ResultsModel::SortRole).toDouble(), 0.8);
  QCOMPARE(model.index(3, c).data(ResultsModel::SortRole).toDouble(), 0.9);

  // Lower-case (soft-masked) bases count as bases.
  model.setSequences({record(0, "acgG", {})}, QStringLiteral("dna"));
  QCOMPARE(text(model, 0, model.columnOf("composition")), QStringLiteral("A 25% C 25% G 50% T 0%"));
  QCOMPARE(model.index(0, model.columnOf("composition")).data(ResultsModel::SortRole).toDouble(),
           0.75);
}

void TestResultsModel::compositionProtein() {
  ResultsModel model;
  QAbstractItemModelTester tester(&model, kReport);
  // MKKLLA: K 2, L 2, A 1, M 1 of 6; ties go by letter, so A comes before M.
  model.setSequences({record(0, "MKKLLA", {{"charge", 2.0}}), record(1, "WWWW", {})},
                     QStringLiteral("protein"));
  QCOMPARE(model.columnNames(), (QStringList{"#", "sequence", "length", "charge", "composition"}));
  const int c = model.columnOf("composition");
  QCOMPARE(text(model, 0, c), QStringLiteral("K 33% L 33% A 17%"));
  QCOMPARE(model.index(0, c).data(ResultsModel::SortRole).toDouble(), 2.0 / 6.0);
  QCOMPARE(text(model, 1, c), QStringLiteral("W 100%"));
  QCOMPARE(model.index(1, c).data(ResultsModel::SortRole).toDouble(), 1.0);
  // A record without the score shows an empty cell.
  QCOMPARE(text(model, 1, model.columnOf("charge")), QString());
}

void TestResultsModel::noCompositionForOtherAlphabets() {
  ResultsModel model;
  QAbstractItemModelTester tester(&model, kReport);
  model.setSequences({record(0, "ABBA", {{"x", 1.0}})}, QString());
  QCOMPARE(model.columnNames(), (QStringList{"#", "sequence", "length", "x"}));
  QCOMPARE(model.columnCount(), 4);
}

void TestResultsModel::sortsNumerically() {
  ResultsModel model;
  ResultsFilterModel proxy;
  QAbstractItemModelTester sourceTester(&model, kReport);
  QAbstractItemModelTester proxyTester(&proxy, kReport);
  proxy.setSourceModel(&model);
  model.setSequences(sample(), QStringLiteral("dna"));
  QCOMPARE(proxy.sortRole(), ResultsModel::SortRole);

  // 10 after 9: text order would give 10, 2, 3, 9.
  proxy.sort(model.columnOf("#"), Qt::AscendingOrder);
  QCOMPARE(indices(proxy), (QList<int>{2, 3, 9, 10}));
  proxy.sort(model.columnOf("#"), Qt::DescendingOrder);
  QCOMPARE(indices(proxy), (QList<int>{10, 9, 3, 2}));

  proxy.sort(model.columnOf("promoter"), Qt::AscendingOrder);  // 0.2 0.5 0.95 0.987654
  QCOMPARE(indices(proxy), (QList<int>{2, 10, 9, 3}));
  proxy.sort(model.columnOf("composition"), Qt::DescendingOrder);  // GC 0.9 0.8 0.4 0.4
  QCOMPARE(indices(proxy).mid(0, 2), (QList<int>{3, 10}));
  proxy.sort(model.columnOf("sequence"), Qt::AscendingOrder);
  QCOMPARE(indices(proxy), (QList<int>{2, 3, 10, 9}));  // ACG.. CCC.. GGG.. TAT..
  // The only row with a novelty sorts before the rows without one.
  proxy.sort(model.columnOf("novelty"), Qt::AscendingOrder);
  QCOMPARE(indices(proxy).first(), 10);
}

void TestResultsModel::filterComparisons() {
  SampleThroughFilter f;
  auto& proxy = f.proxy;

  proxy.setFilterText(QStringLiteral("gc > 0.5"));
  QVERIFY(proxy.filterError().isEmpty());
  QCOMPARE(indices(proxy), (QList<int>{10, 3}));
  proxy.setFilterText(QStringLiteral("gc>=0.45"));
  QCOMPARE(indices(proxy), (QList<int>{10, 2, 3}));
  proxy.setFilterText(QStringLiteral("  PROMOTER   <  0.5 "));  // case and spaces
  QCOMPARE(indices(proxy), (QList<int>{2}));
  proxy.setFilterText(QStringLiteral("promoter <= 0.5"));
  QCOMPARE(indices(proxy), (QList<int>{10, 2}));
  proxy.setFilterText(QStringLiteral("promoter = 0.9877"));  // equal at the shown precision
  QCOMPARE(indices(proxy), (QList<int>{3}));
  proxy.setFilterText(QStringLiteral("# < 10.5"));  // the 1-based numbers shown
  QCOMPARE(indices(proxy), (QList<int>{9, 2, 3}));
  proxy.setFilterText(QStringLiteral("length = 10"));
  QCOMPARE(proxy.rowCount(), 4);
  proxy.setFilterText(QStringLiteral("novelty > 1"));  // rows without a novelty fail
  QCOMPARE(indices(proxy), (QList<int>{10}));
  proxy.setFilterText(QStringLiteral("composition > 0.85"));
  QCOMPARE(indices(proxy), (QList<int>{3}));
  proxy.setFilterText(QString());
  QCOMPARE(proxy.rowCount(), 4);
}

void TestResultsModel::filterPlainText() {
  SampleThroughFilter f;
  auto& proxy = f.proxy;

  proxy.setFilterText(QStringLiteral("TATA"));
  QVERIFY(proxy.filterError().isEmpty());
  QCOMPARE(indices(proxy), (QList<int>{9, 2}));
  proxy.setFilterText(QStringLiteral(" tata "));
  QCOMPARE(indices(proxy), (QList<int>{9, 2}));
  proxy.setFilterText(QStringLiteral("GGGG"));
  QCOMPARE(indices(proxy), (QList<int>{3}));
  proxy.setFilterText(QStringLiteral("TTTTTT"));
  QCOMPARE(proxy.rowCount(), 0);
}

void TestResultsModel::filterConjunction() {
  SampleThroughFilter f;
  auto& proxy = f.proxy;

  // gc > 0.4 keeps #10 #2 #3, promoter < 0.9 then drops #3.
  proxy.setFilterText(QStringLiteral("gc>0.4; promoter<0.9"));
  QVERIFY(proxy.filterError().isEmpty());
  QCOMPARE(indices(proxy), (QList<int>{10, 2}));
  proxy.setFilterText(QStringLiteral("TATA; gc < 0.42;"));  // trailing ';' is harmless
  QCOMPARE(indices(proxy), (QList<int>{9}));
  proxy.sort(0, Qt::DescendingOrder);
  proxy.setFilterText(QStringLiteral("promoter < 0.96 ; gc <= 0.8"));
  QCOMPARE(indices(proxy), (QList<int>{10, 9, 2}));
}

void TestResultsModel::filterErrors() {
  SampleThroughFilter f;
  auto& proxy = f.proxy;
  QSignalSpy spy(&proxy, &ResultsFilterModel::filterErrorChanged);

  proxy.setFilterText(QStringLiteral("gc > 0.5"));
  QCOMPARE(proxy.rowCount(), 2);
  QCOMPARE(spy.count(), 0);

  // An error keeps every row, even those the previous filter hid.
  proxy.setFilterText(QStringLiteral("nope > 1"));
  QVERIFY(proxy.filterError().contains(QStringLiteral("nope")));
  QCOMPARE(proxy.rowCount(), 4);
  QCOMPARE(spy.count(), 1);
  QCOMPARE(spy.at(0).at(0).toString(), proxy.filterError());

  proxy.setFilterText(QStringLiteral("gc > abc"));
  QVERIFY(proxy.filterError().contains(QStringLiteral("abc")));
  QCOMPARE(proxy.rowCount(), 4);
  QCOMPARE(spy.count(), 2);

  // One bad condition spoils the whole filter: a good first part does not filter alone.
  proxy.setFilterText(QStringLiteral("gc > 0.5; promoter < x1"));
  QVERIFY(proxy.filterError().contains(QStringLiteral("x1")));
  QCOMPARE(proxy.rowCount(), 4);

  for (const char* bad : {"gc >", "> 0.5", "sequence > 1", "gc >> 1", "gc > 0.5.1"}) {
    proxy.setFilterText(QString::fromLatin1(bad));
    QVERIFY2(!proxy.filterError().isEmpty(), bad);
    QCOMPARE(proxy.rowCount(), 4);
  }

  const int before = spy.count();
  proxy.setFilterText(QStringLiteral("gc > 0.5"));
  QVERIFY(proxy.filterError().isEmpty());
  QCOMPARE(proxy.rowCount(), 2);
  QCOMPARE(spy.count(), before + 1);
  QVERIFY(spy.last().at(0).toString().isEmpty());
}

void TestResultsModel::filterReparsedWhenColumnsAppear() {
  SampleThroughFilter f;
  auto& model = f.model;
  auto& proxy = f.proxy;

  // Typed before the run produced a "stability" score: an error for now...
  proxy.setFilterText(QStringLiteral("stability > 0.5"));
  QVERIFY(!proxy.filterError().isEmpty());
  QCOMPARE(proxy.rowCount(), 4);
  // ...that resolves when the column arrives (the append resets the model).
  model.appendSequences(
      {record(20, "AAAA", {{"stability", 0.7}}), record(21, "CCCC", {{"stability", 0.3}})});
  QVERIFY(proxy.filterError().isEmpty());
  QCOMPARE(indices(proxy), (QList<int>{20}));

  // A filter on a column that moved (novelty sits after the new score) still reads novelty.
  proxy.setFilterText(QStringLiteral("novelty > 12"));
  QCOMPARE(indices(proxy), (QList<int>{10}));
  model.appendSequences({record(22, "GGGG", {{"aaa", 1.0}}, 50.0)});
  QCOMPARE(model.columnOf("novelty"), 7);
  QCOMPARE(indices(proxy), (QList<int>{10, 22}));
}

void TestResultsModel::filterSetBeforeSource() {
  ResultsModel model;
  ResultsFilterModel proxy;
  QAbstractItemModelTester tester(&proxy, kReport);
  proxy.setFilterText(QStringLiteral("gc > 0.5"));
  QVERIFY(!proxy.filterError().isEmpty());  // no columns to name yet
  proxy.setSourceModel(&model);
  model.setSequences(sample(), QStringLiteral("dna"));
  QVERIFY(proxy.filterError().isEmpty());
  QCOMPARE(indices(proxy), (QList<int>{10, 3}));
}

void TestResultsModel::appendWithoutNewColumns() {
  ResultsModel model;
  QAbstractItemModelTester tester(&model, kReport);
  model.setSequences(sample(), QStringLiteral("dna"));
  QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
  QSignalSpy reset(&model, &QAbstractItemModel::modelReset);

  // Same scores, and a novelty column exists already: rows are inserted.
  model.appendSequences({record(11, "ATATATATAT", {{"gc", 0.0}}, 1.0),
                         record(12, "GCGCGCGCGC", {{"gc", 1.0}, {"promoter", 0.1}})});
  QCOMPARE(inserted.count(), 1);
  QCOMPARE(reset.count(), 0);
  QCOMPARE(inserted.at(0).at(1).toInt(), 4);
  QCOMPARE(inserted.at(0).at(2).toInt(), 5);
  QCOMPARE(model.rowCount(), 6);
  QCOMPARE(model.columnCount(), 7);
  QCOMPARE(text(model, 4, 0), QStringLiteral("12"));  // index 11, shown 1-based
  QCOMPARE(text(model, 4, model.columnOf("promoter")), QString());
  QCOMPARE(text(model, 5, model.columnOf("composition")), QStringLiteral("A 0% C 50% G 50% T 0%"));

  model.appendSequences({});  // nothing to add, nothing announced
  QCOMPARE(inserted.count(), 1);
  QCOMPARE(reset.count(), 0);
}

void TestResultsModel::appendWithNewColumns() {
  ResultsModel model;
  QAbstractItemModelTester tester(&model, kReport);
  model.setSequences({record(0, "ACGT", {{"gc", 0.5}})}, QStringLiteral("dna"));
  QCOMPARE(model.columnCount(), 5);  // #, sequence, length, gc, composition
  QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
  QSignalSpy reset(&model, &QAbstractItemModel::modelReset);

  model.appendSequences({record(1, "AAAA", {{"gc", 0.0}, {"stability", 2.5}})});
  QCOMPARE(reset.count(), 1);
  QCOMPARE(inserted.count(), 0);
  QCOMPARE(model.rowCount(), 2);
  QCOMPARE(model.columnCount(), 6);
  QCOMPARE(model.scoreNames(), (QStringList{"gc", "stability"}));
  QCOMPARE(text(model, 1, model.columnOf("stability")), QStringLiteral("2.5"));
  QCOMPARE(text(model, 0, model.columnOf("stability")), QString());

  // The first novelty adds a column too.
  model.appendSequences({record(2, "CCCC", {{"gc", 1.0}}, 0.25)});
  QCOMPARE(reset.count(), 2);
  QCOMPARE(inserted.count(), 0);
  QCOMPARE(model.columnNames(),
           (QStringList{"#", "sequence", "length", "gc", "stability", "novelty", "composition"}));
  // A score sorting before the others goes first among the score columns.
  model.appendSequences({record(3, "GGGG", {{"activity", 0.125}})});
  QCOMPARE(reset.count(), 3);
  QCOMPARE(model.scoreNames(), (QStringList{"activity", "gc", "stability"}));
  QCOMPARE(text(model, 3, 3), QStringLiteral("0.125"));
  QCOMPARE(text(model, 0, 4), QStringLiteral("0.5"));  // gc of the first row, moved right
}

void TestResultsModel::appendWhileSortedAndFiltered() {
  ResultsModel model;
  ResultsFilterModel proxy;
  QAbstractItemModelTester sourceTester(&model, kReport);
  QAbstractItemModelTester proxyTester(&proxy, kReport);
  proxy.setSourceModel(&model);
  model.setSequences(sample(), QStringLiteral("dna"));
  proxy.sort(model.columnOf("gc"), Qt::DescendingOrder);
  proxy.setFilterText(QStringLiteral("gc > 0.42"));
  QCOMPARE(indices(proxy), (QList<int>{10, 3, 2}));  // gc 0.8 0.6 0.45

  model.appendSequences({record(30, "GCGC", {{"gc", 0.7}, {"promoter", 0.4}}),
                         record(31, "ATAT", {{"gc", 0.1}, {"promoter", 0.4}})});
  QCOMPARE(indices(proxy), (QList<int>{10, 30, 3, 2}));
  // A new score column ("extra" sorts before "gc") resets the model and moves gc right: the
  // proxy keeps sorting by gc, not by whatever now sits at gc's old index.
  model.appendSequences({record(32, "GGCC", {{"gc", 0.9}, {"extra", 1.0}})});
  QCOMPARE(proxy.sortColumn(), model.columnOf("gc"));
  QCOMPARE(proxy.sortOrder(), Qt::DescendingOrder);
  QCOMPARE(indices(proxy), (QList<int>{32, 10, 30, 3, 2}));
  model.clear();
  QCOMPARE(proxy.rowCount(), 0);
}

void TestResultsModel::clearKeepsAlphabet() {
  ResultsModel model;
  QAbstractItemModelTester tester(&model, kReport);
  model.setSequences(sample(), QStringLiteral("dna"));
  QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
  model.clear();
  QCOMPARE(reset.count(), 1);
  QCOMPARE(model.rowCount(), 0);
  QVERIFY(model.scoreNames().isEmpty());
  // A live run clears the table and then appends batches of the same alphabet.
  QCOMPARE(model.columnNames(), (QStringList{"#", "sequence", "length", "composition"}));
  model.appendSequences({record(0, "ACGT", {{"gc", 0.5}})});
  QCOMPARE(model.rowCount(), 1);
  QCOMPARE(text(model, 0, model.columnOf("composition")),
           QStringLiteral("A 25% C 25% G 25% T 25%"));
}

// The design's stored scores (pipeline::add_design_scores): constraints_met shows as the column
// "constraints" with met / unmet (sorting and filtering on 1 / 0, or on the words), and the counts
// edits, repaired and start as whole numbers, however large.
void TestResultsModel::designScoresReadWell() {
  ResultsModel model;
  ResultsFilterModel proxy;
  QAbstractItemModelTester tester(&proxy, kReport);
  proxy.setSourceModel(&model);
  model.setSequences(
      {record(0, "ACGT", {{"constraints_met", 1}, {"repaired", 0}, {"edits", 3}, {"start", 1}}),
       record(1, "AAAA",
              {{"constraints_met", 0}, {"repaired", 12345}, {"edits", 40}, {"start", 2}}),
       record(2, "CCGG", {{"gc", 1.0}})},
      QStringLiteral("dna"));
  QCOMPARE(model.columnNames(), (QStringList{"#", "sequence", "length", "constraints", "edits",
                                             "gc", "repaired", "start", "composition"}));
  QCOMPARE(model.scoreNames().front(), QStringLiteral("constraints_met"));
  const int met = model.columnOf("constraints"), repaired = model.columnOf("repaired"),
            edits = model.columnOf("edits"), start = model.columnOf("start");
  QCOMPARE(text(model, 0, met), QStringLiteral("met"));
  QCOMPARE(text(model, 1, met), QStringLiteral("unmet"));
  QCOMPARE(text(model, 2, met), QString());  // no design score for this row
  QCOMPARE(text(model, 1, repaired), QStringLiteral("12345"));
  QCOMPARE(text(model, 1, edits), QStringLiteral("40"));
  QCOMPARE(text(model, 1, start), QStringLiteral("2"));
  QCOMPARE(model.index(1, met).data(ResultsModel::SortRole).toDouble(), 0.0);
  QVERIFY(!model.index(0, met).data(Qt::ToolTipRole).toString().isEmpty());
  QVERIFY(!model.index(0, edits).data(Qt::ToolTipRole).toString().isEmpty());

  proxy.setFilterText(QStringLiteral("constraints = unmet"));
  QCOMPARE(proxy.filterError(), QString());
  QCOMPARE(indices(proxy), (QList<int>{1}));
  proxy.setFilterText(QStringLiteral("constraints = 1; edits < 10"));
  QCOMPARE(indices(proxy), (QList<int>{0}));
  proxy.setFilterText(QStringLiteral("constraints = maybe"));
  QVERIFY(!proxy.filterError().isEmpty());
  proxy.setFilterText(QString());
  proxy.sort(met, Qt::AscendingOrder);
  QCOMPARE(indices(proxy), (QList<int>{1, 0, 2}));  // unmet, met, then none
}

// One index column: "#" is the 1-based record number (the FASTA record order), its tooltip the
// record's id as the FASTA export writes it (RUN_sIDX, IDX 0-based as in the run).
void TestResultsModel::indexIsOneBasedWithTheRecordId() {
  ResultsModel model;
  QAbstractItemModelTester tester(&model, kReport);
  model.setSequences({record(0, "ACGT", {}), record(41, "AAAA", {})}, QStringLiteral("dna"));
  QCOMPARE(text(model, 0, 0), QStringLiteral("1"));
  QCOMPARE(text(model, 1, 0), QStringLiteral("42"));
  QVERIFY(!model.index(1, 0).data(Qt::ToolTipRole).isValid());  // no run name yet
  model.setRunName(QStringLiteral("screen1"));
  QCOMPARE(model.index(1, 0).data(Qt::ToolTipRole).toString(),
           QStringLiteral("Record 42 of the run's FASTA: screen1_s41"));
}

// With a typicality profile, a "warning" column lists the statistics outside its range (as
// TypicalityProfile::atypical words them), sorts and filters by their count, and marks the
// composition and warning cells of those rows with WarningRole; the profile of another alphabet
// or none at all gives no column.
void TestResultsModel::compositionWarnings() {
  ResultsModel model;
  ResultsFilterModel proxy;
  QAbstractItemModelTester tester(&proxy, kReport);
  proxy.setSourceModel(&model);
  model.setSequences(sample(), QStringLiteral("dna"));
  QVERIFY(!model.hasWarnings());
  QCOMPARE(model.columnOf("warning"), -1);

  // Every statistic free except C, at most 45 %: only CCCCCGGGGA (C 50 %, index 3) is out.
  gsflow::engine::TypicalityProfile profile;
  profile.letters = "ACGT";
  profile.names = gsflow::engine::sequence_stat_names("ACGT");
  profile.low.assign(profile.names.size(), 0.0);
  profile.high.assign(profile.names.size(), 100.0);
  profile.high[1] = 0.45;  // "C"
  QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
  model.setTypicality(profile);
  QCOMPARE(reset.count(), 1);
  QVERIFY(model.hasWarnings());
  QCOMPARE(model.columnNames().last(), QStringLiteral("warning"));
  const int warning = model.columnOf("warning"), composition = model.columnOf("composition");
  QCOMPARE(warning, composition + 1);
  QCOMPARE(model.warningsAt(3), QStringList{QStringLiteral("C 0.5 > 0.45")});
  QCOMPARE(text(model, 3, warning), QStringLiteral("\u26a0 C 0.5 > 0.45"));
  QCOMPARE(text(model, 1, warning), QString());  // C 40 %: typical
  QCOMPARE(model.index(3, warning).data(ResultsModel::SortRole).toDouble(), 1.0);
  QCOMPARE(model.index(1, warning).data(ResultsModel::SortRole).toDouble(), 0.0);
  QVERIFY(model.index(3, warning).data(ResultsModel::WarningRole).toBool());
  QVERIFY(model.index(3, composition).data(ResultsModel::WarningRole).toBool());
  QVERIFY(!model.index(3, 1).data(ResultsModel::WarningRole).toBool());
  QVERIFY(!model.index(1, composition).data(ResultsModel::WarningRole).toBool());
  QVERIFY(model.index(3, composition).data(Qt::ToolTipRole).toString().contains("C 0.5 > 0.45"));
  proxy.setFilterText(QStringLiteral("warning > 0"));
  QCOMPARE(proxy.filterError(), QString());
  QCOMPARE(indices(proxy), (QList<int>{3}));
  proxy.setFilterText(QString());

  // Appended rows get their warnings too; the profile stays for the next run's rows.
  model.appendSequences({record(20, "CCCCCCCCCA", {{"gc", 0.9}})});
  QCOMPARE(model.warningsAt(4).size(), 1);
  model.setSequences({record(0, "CCCCACCCCA", {})}, QStringLiteral("dna"));
  QVERIFY(model.hasWarnings());
  QCOMPARE(model.warningsAt(0).size(), 1);
  // A peptide run with a DNA profile: no statistics to compare, no column.
  model.setSequences({record(0, "MKCCCCCCCC", {})}, QStringLiteral("protein"));
  QVERIFY(model.warningsAt(0).isEmpty());
  QCOMPARE(model.columnOf("warning"), -1);
  model.setTypicality(std::nullopt);
  QVERIFY(!model.hasWarnings());
  QCOMPARE(model.columnOf("warning"), -1);
}

QTEST_GUILESS_MAIN(TestResultsModel)
#include "test_results_model.moc"
