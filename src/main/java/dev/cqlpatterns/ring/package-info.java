/**
 * Function group {@code ring} ({@link dev.cqlpatterns.platform.functions.FunctionGroup}): the
 * token ring and the token of a partition key (seed 004), one class per query pattern. {@code
 * bin/function-build ring} builds the group alone.
 */
package dev.cqlpatterns.ring;
