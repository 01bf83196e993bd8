/**
 * Function group {@code courses} ({@link dev.cqlpatterns.platform.functions.FunctionGroup}): the
 * clickstream, bucketed by month (seed 002), one class per query pattern. The group is named for
 * {@code courses}, the other half of seed 002, and serves both. {@code bin/function-build courses}
 * builds the group alone.
 */
package dev.cqlpatterns.clickstream;
