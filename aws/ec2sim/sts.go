package ec2sim

import (
	"net/http"
)

const stsNamespace = "https://sts.amazonaws.com/doc/2011-06-15/"

// serveSTS answers STS's awsquery protocol, of which only GetCallerIdentity is served:
// it tells the program which (demo) account it acts as.
func (s *Server) serveSTS(w http.ResponseWriter, c *call) {
	switch {
	case c.action == "":
		writeSTSError(w, c.reqID, missingParam("Action"))
		return
	case c.action != "GetCallerIdentity":
		writeSTSError(w, c.reqID, errf(http.StatusBadRequest, "InvalidAction", "Could not find operation %s for version %s; this emulator serves GetCallerIdentity only.", c.action, stsVersion))
		return
	}
	if v := c.form.str("Version"); v != stsVersion {
		writeSTSError(w, c.reqID, errf(http.StatusBadRequest, "InvalidAction", "Could not find operation GetCallerIdentity for version %q; expected %s.", v, stsVersion))
		return
	}
	var x xmlBody
	x.b.WriteString(`<GetCallerIdentityResponse xmlns="` + stsNamespace + `">`)
	x.open("GetCallerIdentityResult")
	x.str("Arn", "arn:aws:iam::"+DemoAccount+":user/gpublock-demo")
	x.str("UserId", "AIDAGPUBLOCKDEMO00001")
	x.str("Account", DemoAccount)
	x.close("GetCallerIdentityResult")
	x.open("ResponseMetadata")
	x.str("RequestId", c.reqID)
	x.close("ResponseMetadata")
	x.close("GetCallerIdentityResponse")
	x.send(w, http.StatusOK, c.reqID, "text/xml")
}

// writeSTSError answers in awsquery's <ErrorResponse> shape, which the STS client parses.
func writeSTSError(w http.ResponseWriter, reqID string, e *apiError) {
	var x xmlBody
	x.b.WriteString(`<ErrorResponse xmlns="` + stsNamespace + `">`)
	x.open("Error")
	if e.status >= 500 {
		x.str("Type", "Receiver")
	} else {
		x.str("Type", "Sender")
	}
	x.str("Code", e.code)
	x.str("Message", e.message)
	x.close("Error")
	x.str("RequestId", reqID)
	x.close("ErrorResponse")
	x.send(w, e.status, reqID, "text/xml")
}
