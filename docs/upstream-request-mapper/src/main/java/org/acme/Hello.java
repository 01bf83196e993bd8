package org.acme;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;

@Path("/hello/{name}")
public class Hello {
    @GET
    public String hello(@PathParam("name") String name) {
        return "hello " + name;
    }
}
