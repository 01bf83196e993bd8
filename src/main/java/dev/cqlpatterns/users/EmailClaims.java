package dev.cqlpatterns.users;

import com.datastax.oss.driver.api.core.cql.Row;

/** What the claim of an email in users_by_email says, as UserStore reads and settles it. */
final class EmailClaims {
    private EmailClaims() {}

    /** Who claims an email, and at which version of theirs. */
    record Claim(String username, long version) {
        /** From a row of users_by_email, or a conditional write's answer (null when there is no claim). */
        static Claim of(Row row) {
            if (row == null || !row.getColumnDefinitions().contains("username") || row.isNull("username")) {
                return null;
            }
            boolean versioned = row.getColumnDefinitions().contains("version") && !row.isNull("version");
            return new Claim(row.getString("username"), versioned ? row.getLong("version") : 0);
        }

        static Claim of(EmailRow row) {
            return row == null ? null : new Claim(row.username(), row.version() == null ? 0 : row.version());
        }
    }

    /** An email's claim, and its holder as of now when that is another user (a serial read). */
    record Held(Claim claim, UserRow holder) {
        /**
         * Whether the claim is left over: its holder is on another email and has changed since they
         * claimed this one, so no move of theirs to it can still apply (a move asserts its claim at
         * the version it writes over).
         */
        boolean stale(String email) {
            return holder != null && !email.equals(holder.email()) && claim.version() < holder.versionOrZero();
        }
    }
}
