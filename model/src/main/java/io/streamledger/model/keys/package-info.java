/**
 * The IDX01–IDX19 key grammar: typed key records, builders and parsers; components with {@code #}
 * are rejected, not escaped.
 */
package io.streamledger.model.keys;
