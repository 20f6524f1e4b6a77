/* Plain C reference loops over CSR rows: the perceptron and PA-I, the same arithmetic as the
 * bare Numba loops of _common.py (bias b stepped with w, not counted in ||x||^2), written the
 * way a C programmer would: no recording, no validation. Built by c_reference.py with the
 * system compiler at -O2 -ffp-contract=off and at -O3 -ffast-math (both -march=native); a
 * speed reference only.
 *
 *   perceptron: update when y(w.x + b) <= 0:  w += y.x, b += y
 *   PA-I:       l = 1 - y(w.x + b); if l > 0 and ||x||^2 > 0: tau = min(C, l/||x||^2),
 *               w += tau.y.x, b += tau.y
 *
 * indices are scipy's int32 column indices, indptr int64 (converted outside the timing).
 * Both return the number of updates and store the final bias in *bias.
 */
#include <stdint.h>

int64_t perceptron_csr(const double *data, const int32_t *indices, const int64_t *indptr,
                       const double *y, int64_t n, double *w, double *bias)
{
    double b = 0.0;
    int64_t updates = 0;
    for (int64_t i = 0; i < n; i++) {
        double s = b;
        for (int64_t k = indptr[i]; k < indptr[i + 1]; k++)
            s += w[indices[k]] * data[k];
        if (y[i] * s <= 0.0) {
            for (int64_t k = indptr[i]; k < indptr[i + 1]; k++)
                w[indices[k]] += y[i] * data[k];
            b += y[i];
            updates++;
        }
    }
    *bias = b;
    return updates;
}

int64_t pa1_csr(const double *data, const int32_t *indices, const int64_t *indptr,
                const double *y, int64_t n, double *w, double c, double *bias)
{
    double b = 0.0;
    int64_t updates = 0;
    for (int64_t i = 0; i < n; i++) {
        double s = b;
        for (int64_t k = indptr[i]; k < indptr[i + 1]; k++)
            s += w[indices[k]] * data[k];
        double loss = 1.0 - y[i] * s;
        if (loss > 0.0) {
            double sq = 0.0;
            for (int64_t k = indptr[i]; k < indptr[i + 1]; k++)
                sq += data[k] * data[k];
            if (sq > 0.0) {
                double tau = loss / sq;
                if (tau > c)
                    tau = c;
                for (int64_t k = indptr[i]; k < indptr[i + 1]; k++)
                    w[indices[k]] += tau * y[i] * data[k];
                b += tau * y[i];
                updates++;
            }
        }
    }
    *bias = b;
    return updates;
}
