// Load-cell counts -> grams, and the stability filter that decides when a weight has settled.
//
// Pure logic (host-tested). Weights are carried as int32_t decigrams (0.1 g): the protocol prints grams
// with one decimal, and integer maths keeps the AVR free of float code.
#ifndef ZT_WEIGHT_FILTER_H
#define ZT_WEIGHT_FILTER_H

#include <stdint.h>

// Converts a raw HX711 reading to decigrams with the calibration (tare in counts, per_kg = counts per
// kilogram, negative when the cell is mounted the other way round). Returns false when uncalibrated
// (per_kg == 0) or when the result does not fit an int32_t.
bool weight_decigrams(int32_t raw, int32_t tare, int32_t per_kg, int32_t *dg);

// Computes counts per kilogram from the average reading with `grams` on the pad. Returns false when the
// reading moved less than WEIGHT_MIN_CAL_COUNTS from the tare (nothing on the pad, or a broken cell).
bool weight_calibration(int32_t average, int32_t tare, uint32_t grams, int32_t *per_kg);

#define WEIGHT_MIN_CAL_COUNTS 1000L

// Filter parameters (decigrams, samples). At 10 samples/s a window of 5 is half a second.
#define WEIGHT_WINDOW 5
#define WEIGHT_STABLE_BAND_DG 10 // settled: the last WEIGHT_WINDOW samples lie within 1.0 g
#define WEIGHT_REPORT_STEP_DG 5  // while settled, a drift of the mean by 0.5 g is reported again

struct WeightReport {
  int32_t dg;
  bool stable;
};

// Emits a report (`W <grams> S|U`) only on a change of state:
//   - unsettled -> settled: `S` with the window mean;
//   - settled, mean drifted >= WEIGHT_REPORT_STEP_DG from the last report: `S` with the new mean;
//   - settled -> unsettled (window spread beyond the band): `U` with the latest sample, once.
// Nothing is reported until the first window has filled.
class WeightFilter {
public:
  WeightFilter() { reset(); }
  void reset();
  // Feeds one sample; returns true with *out filled when a report is due.
  bool feed(int32_t dg, WeightReport *out);
  bool stable() const { return stable_; }

private:
  int32_t window_[WEIGHT_WINDOW];
  uint8_t count_;
  uint8_t head_;
  bool stable_;
  int32_t reported_;
};

#endif
