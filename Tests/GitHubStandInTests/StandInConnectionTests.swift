import Foundation
import GitHubStandIn
import Testing

@Suite struct StandInConnectionTests {
    @Test func oneConnectionAnswersPipelinedRequestsInOrderAndStaysOpen() throws {
        try withStandInServer { server throws in
            let connection = try RawHTTPConnection(port: server.port)
            try connection.write(
                RawHTTPConnection.requestText(target: "/users/octocat")
                    + RawHTTPConnection.requestText(target: "/users/nobody")
                    + RawHTTPConnection.requestText(target: "/users?per_page=1"))
            #expect(try connection.readResponse().status == 200)
            #expect(try connection.readResponse().status == 404)
            let last = try connection.readResponse()
            #expect(try last.jsonArray().count == 1 && last.header("Connection") == "keep-alive")
            #expect(try connection.request("GET", "/nowhere").header("Connection") == "keep-alive")
            #expect(server.requests.count == 4)
        }
    }

    @Test func connectionCloseIsHonoured() throws {
        try withStandInServer { server throws in
            let connection = try RawHTTPConnection(port: server.port)
            let response = try connection.request("GET", "/users/octocat", headers: [("Connection", "close")])
            #expect(response.status == 200)
            #expect(response.header("Connection") == "close")
            #expect(connection.peerClosed())

            let legacy = try RawHTTPConnection(port: server.port)
            try legacy.write("GET /users/octocat HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
            #expect(try legacy.readResponse().status == 200)
            #expect(legacy.peerClosed())
        }
    }

    @Test func requestsArrivingInFragmentsAreReassembled() throws {
        try withStandInServer { server throws in
            let connection = try RawHTTPConnection(port: server.port)
            let request = Array(
                RawHTTPConnection.requestText(
                    target: "/users/Yamada-Taro", headers: [("Accept", "application/vnd.github+json")]
                ).utf8)
            var offset = 0
            while offset < request.count {
                let end = min(request.count, offset + 7)
                try connection.write(Array(request[offset..<end]))
                usleep(2_000)
                offset = end
            }
            let response = try connection.readResponse()
            #expect(response.status == 200)
            #expect(try response.jsonObject()["name"] as? String == "山田太郎")
            #expect(server.requests.first?.header("accept") == "application/vnd.github+json")
        }
    }

    @Test func requestWithBodyIsFramedByContentLength() throws {
        try withStandInServer { server throws in
            let connection = try RawHTTPConnection(port: server.port)
            try connection.write("POST /users HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhel")
            usleep(20_000)
            try connection.write("lo" + RawHTTPConnection.requestText(target: "/users/octocat"))
            #expect(try connection.readResponse().status == 404)
            #expect(try connection.readResponse().status == 200)
            #expect(server.requests.first?.body == Array("hello".utf8))
        }
    }

    @Test func garbageGets400AndACloseNotACrash() throws {
        try withStandInServer { server throws in
            let connection = try RawHTTPConnection(port: server.port)
            try connection.write("THIS IS NOT HTTP\r\n\r\n")
            #expect(try connection.readResponse().status == 400)
            #expect(connection.peerClosed())
            #expect(try fetch(server, "/users/octocat").status == 200)
        }
    }

    @Test func stopReturnsPromptlyWithBusyAndIdleConnections() throws {
        let server = try StandInServer(configuration: StandInConfiguration(userCount: 20))
        try server.start()
        let port = server.port
        #expect(port > 0)
        #expect(server.baseURL == "http://127.0.0.1:\(port)")
        server.injectFaults([.hang(seconds: 30)], forPath: "/users")
        let idle = try RawHTTPConnection(port: port)
        #expect(try idle.request("GET", "/users/octocat").status == 200)
        let hanging = try RawHTTPConnection(port: port)
        try hanging.write(RawHTTPConnection.requestText(target: "/users"))
        usleep(100_000)

        server.stop()
        #expect(idle.peerClosed())
        #expect(hanging.peerClosed())
        #expect(throws: RawHTTPError.self) { _ = try RawHTTPConnection(port: port) }
        server.stop()
    }

    @Test(arguments: [
        StandInConfiguration(userCount: -1), StandInConfiguration(port: 70_000),
        StandInConfiguration(searchWindowSeconds: 0), StandInConfiguration(sameSecondAccounts: -1),
    ])
    func badConfigurationsAreRejected(_ configuration: StandInConfiguration) {
        #expect(throws: StandInServerError.invalidConfiguration) { try StandInServer(configuration: configuration) }
    }
}
