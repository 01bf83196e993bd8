package dev.cqlpatterns.users;

import com.datastax.oss.driver.api.mapper.annotations.CqlName;
import com.datastax.oss.driver.api.mapper.annotations.Entity;
import dev.cqlpatterns.platform.http.Text;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.PositiveOrZero;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.hibernate.validator.constraints.CodePointLength;

/**
 * One postal address: the {@code address} user-defined type of users_by_username (the mapper
 * turns it into a UDT value), and the JSON of an address in requests and answers.
 */
@Entity
@CqlName("address")
@Schema(name = "Address", description = "A postal address")
public record Address(
        @NotBlank
        @CodePointLength(max = 200)
        @Pattern(regexp = Text.SINGLE_LINE, message = Text.SINGLE_LINE_MESSAGE)
        @Schema(examples = "1 Main Street", pattern = Text.SINGLE_LINE_NOT_BLANK, maxLength = 200)
        String street,

        @NotBlank
        @CodePointLength(max = 100)
        @Pattern(regexp = Text.SINGLE_LINE, message = Text.SINGLE_LINE_MESSAGE)
        @Schema(examples = "Springfield", pattern = Text.SINGLE_LINE_NOT_BLANK, maxLength = 100)
        String city,

        @NotNull @PositiveOrZero @Max(99_999_999) @Schema(examples = "12345")
        Integer zip) {}
