/**
 * Function group {@code courses} ({@link dev.cqlpatterns.platform.functions.FunctionGroup}):
 * courses with their modules, and course page views (seed 002), one class per query pattern. The
 * group also serves {@code clickstream}, the other half of seed 002. {@code bin/function-build
 * courses} builds the group alone.
 */
package dev.cqlpatterns.courses;
