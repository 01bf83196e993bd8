package dev.cqlpatterns.users;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.mapper.annotations.DaoFactory;
import com.datastax.oss.driver.api.mapper.annotations.DaoKeyspace;
import com.datastax.oss.driver.api.mapper.annotations.Mapper;
import java.util.concurrent.CompletionStage;

/** The object mapper of the users feature; the DAO is made asynchronously (it prepares statements). */
@Mapper
public interface UsersMapper {

    @DaoFactory
    CompletionStage<UserDao> userDao(@DaoKeyspace CqlIdentifier keyspace);
}
