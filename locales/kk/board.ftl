# board messages
