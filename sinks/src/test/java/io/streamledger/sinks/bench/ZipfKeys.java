package io.streamledger.sinks.bench;

import java.util.Arrays;
import java.util.Random;

/** Zipf-distributed key ranks 0..n-1 with exponent s, by inverse CDF (benchmark input, AMP04). */
final class ZipfKeys {
    private final double[] cdf;
    private final Random random;

    ZipfKeys(int n, double s, long seed) {
        cdf = new double[n];
        double sum = 0;
        for (int k = 1; k <= n; k++) {
            sum += 1.0 / Math.pow(k, s);
            cdf[k - 1] = sum;
        }
        for (int i = 0; i < n; i++) {
            cdf[i] /= sum;
        }
        random = new Random(seed);
    }

    int next() {
        int i = Arrays.binarySearch(cdf, random.nextDouble());
        return i >= 0 ? i : Math.min(-i - 1, cdf.length - 1);
    }
}
