// A static HTTP server for bench/fetch.sh: the files of a folder (argv[1]) on
// 127.0.0.1:argv[2], by Go's net/http (sendfile, Range, many connections on every core),
// so that the transfer, not the server, is what the bench measures (Python's http.server
// thrashed under 16 connections: fetch 3x slower with --jobs 16 than with 4).
package main

import (
	"fmt"
	"net"
	"net/http"
	"os"
)

func main() {
	ln, err := net.Listen("tcp", "127.0.0.1:"+os.Args[2])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	http.Serve(ln, http.FileServer(http.Dir(os.Args[1])))
}
