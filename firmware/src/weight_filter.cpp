#include "weight_filter.h"

bool weight_decigrams(int32_t raw, int32_t tare, int32_t per_kg, int32_t *dg) {
  if (per_kg == 0) return false;
  // dg = (raw - tare) * 10000 / per_kg, rounded half away from zero. 64-bit: 2^25 * 10^4 overflows 32.
  int64_t num = ((int64_t)raw - (int64_t)tare) * 10000;
  int64_t den = per_kg;
  if (den < 0) {
    num = -num;
    den = -den;
  }
  int64_t q = (num >= 0 ? num + den / 2 : num - den / 2) / den;
  if (q > INT32_MAX || q < INT32_MIN) return false;
  *dg = (int32_t)q;
  return true;
}

bool weight_calibration(int32_t average, int32_t tare, uint32_t grams, int32_t *per_kg) {
  int64_t delta = (int64_t)average - (int64_t)tare;
  if (grams == 0 || (delta < WEIGHT_MIN_CAL_COUNTS && delta > -WEIGHT_MIN_CAL_COUNTS)) return false;
  int64_t num = delta * 1000;
  int64_t q = (num >= 0 ? num + grams / 2 : num - (int64_t)(grams / 2)) / (int64_t)grams;
  if (q > INT32_MAX || q < INT32_MIN || q == 0) return false;
  *per_kg = (int32_t)q;
  return true;
}

void WeightFilter::reset() {
  count_ = 0;
  head_ = 0;
  stable_ = false;
  reported_ = 0;
}

bool WeightFilter::feed(int32_t dg, WeightReport *out) {
  window_[head_] = dg;
  head_ = (uint8_t)((head_ + 1) % WEIGHT_WINDOW);
  if (count_ < WEIGHT_WINDOW) count_++;
  if (count_ < WEIGHT_WINDOW) return false;

  int32_t lo = window_[0], hi = window_[0];
  for (uint8_t i = 1; i < WEIGHT_WINDOW; i++) {
    if (window_[i] < lo) lo = window_[i];
    if (window_[i] > hi) hi = window_[i];
  }
  // Compare as 64-bit: a spread across the int32 range must not wrap into "settled".
  bool flat = (int64_t)hi - (int64_t)lo <= WEIGHT_STABLE_BAND_DG;
  if (!flat) {
    if (!stable_) return false;
    stable_ = false;
    out->dg = dg;
    out->stable = false;
    return true;
  }
  // Mean as lo + mean offset: the offsets are within the band, so nothing overflows.
  int32_t sum = 0;
  for (uint8_t i = 0; i < WEIGHT_WINDOW; i++) sum += window_[i] - lo;
  int32_t mean = lo + (sum + WEIGHT_WINDOW / 2) / WEIGHT_WINDOW;
  if (stable_) {
    int32_t drift = mean - reported_;
    if (drift < WEIGHT_REPORT_STEP_DG && drift > -WEIGHT_REPORT_STEP_DG) return false;
  }
  stable_ = true;
  reported_ = mean;
  out->dg = mean;
  out->stable = true;
  return true;
}
