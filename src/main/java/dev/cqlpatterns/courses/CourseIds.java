package dev.cqlpatterns.courses;

import dev.cqlpatterns.platform.errors.ProblemException;
import java.util.regex.Pattern;

/** Validates the path parameters of the course routes, naming the parameter at fault. */
final class CourseIds {
    static final String COURSE_ID_EXAMPLE = "node-intro";
    static final int COURSE_ID_MAX = 100;
    static final String COURSE_ID_PATTERN = "^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$";
    private static final Pattern COURSE_ID = Pattern.compile(COURSE_ID_PATTERN);
    private static final Pattern DIGITS = Pattern.compile("[0-9]{1,10}");

    private CourseIds() {}

    /** A slug such as node-intro: letters, digits, '.', '_' and '-', at most 100 characters. */
    static String courseId(String raw) {
        if (raw == null || !COURSE_ID.matcher(raw).matches()) {
            throw ProblemException.invalid(
                    "courseId", "must be 1 to 100 letters, digits, '.', '_' or '-', starting with a letter or digit");
        }
        return raw;
    }

    /** A positive integer up to the configured maximum, which bounds the course's partition. */
    static int moduleId(String raw, int max) {
        long value = raw != null && DIGITS.matcher(raw).matches() ? Long.parseLong(raw) : -1;
        if (value < 1 || value > max) {
            throw ProblemException.invalid("moduleId", "must be an integer between 1 and " + max);
        }
        return (int) value;
    }
}
