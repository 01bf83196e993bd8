/**
 * Function group {@code songs} ({@link dev.cqlpatterns.platform.functions.FunctionGroup}): songs
 * and their tags (seed 004), one class per query pattern. {@code bin/function-build songs} builds
 * the group alone.
 */
package dev.cqlpatterns.songs;
