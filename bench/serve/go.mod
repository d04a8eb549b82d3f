module odfhash/benchserve

go 1.19
