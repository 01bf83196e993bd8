package dev.cqlpatterns.platform.errors;

import com.datastax.oss.driver.api.core.DriverException;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import jakarta.validation.ConstraintViolationException;
import jakarta.validation.ValidationException;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import java.util.concurrent.CompletionException;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * Registers {@link Problems} for every failure type that can reach the REST layer. Each type is
 * named so ours wins over Quarkus's built-in mappers for the same type, which answer text/html
 * or bodies without the problem shape.
 */
public class ProblemMappers {

    @ServerExceptionMapper
    public Response problem(ProblemException e) {
        return Problems.response(e);
    }

    @ServerExceptionMapper
    public Response validation(ConstraintViolationException e) {
        return Problems.response(e);
    }

    @ServerExceptionMapper
    public Response validation(ValidationException e) {
        return Problems.response(e);
    }

    @ServerExceptionMapper
    public Response json(JsonProcessingException e) {
        return Problems.response(e);
    }

    @ServerExceptionMapper
    public Response json(JsonParseException e) {
        return Problems.response(e);
    }

    @ServerExceptionMapper
    public Response json(MismatchedInputException e) {
        return Problems.response(e);
    }

    @ServerExceptionMapper
    public Response json(InvalidFormatException e) {
        return Problems.response(e);
    }

    @ServerExceptionMapper
    public Response unauthorized(io.quarkus.security.UnauthorizedException e) {
        return Problems.response(e);
    }

    @ServerExceptionMapper
    public Response unauthenticated(io.quarkus.security.AuthenticationFailedException e) {
        return Problems.response(e);
    }

    @ServerExceptionMapper
    public Response forbidden(io.quarkus.security.ForbiddenException e) {
        return Problems.response(e);
    }

    @ServerExceptionMapper
    public Response notFound(NotFoundException e) {
        return Problems.response(e);
    }

    @ServerExceptionMapper
    public Response web(WebApplicationException e) {
        return Problems.response(e);
    }

    @ServerExceptionMapper
    public Response driver(DriverException e) {
        return Problems.response(e);
    }

    @ServerExceptionMapper
    public Response wrapped(CompletionException e) {
        return Problems.response(e);
    }

    @ServerExceptionMapper
    public Response unexpected(Throwable e) {
        return Problems.response(e);
    }
}
